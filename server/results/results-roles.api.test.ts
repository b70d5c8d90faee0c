import type { StaffRole } from "../../common/staff/staff.ts";
import {
  describeRoleTable,
  useRoleTableHarness,
  type RoleRow,
} from "../staff/role-table.test-kit.ts";

const harness = useRoleTableHarness();
const row = (method: string, path: string, roles: StaffRole[], json?: unknown): RoleRow => ({
  method,
  path: () => path,
  roles,
  json,
});

// Bodies and ids that cannot succeed: an allowed role gets 200, 400 or 404, and nothing changes.
describeRoleTable(
  "roles on the results endpoints",
  harness,
  [
    row("POST", "/staff/results/offerings", ["registry"], {}),
    row("GET", "/staff/results/teaching", ["lecturer"]),
    row("GET", "/staff/results/offerings/99999", ["lecturer"]),
    row("PUT", "/staff/results/offerings/99999/scores", ["lecturer"], { scores: [] }),
    row("POST", "/staff/results/offerings/99999/submit", ["lecturer"]),
    row("POST", "/staff/results/department-heads", ["registry"], {}),
    row("GET", "/staff/results/review", ["hod"]),
    row("GET", "/staff/results/review/99999", ["hod"]),
    row("POST", "/staff/results/review/99999/approve", ["hod"]),
    row("POST", "/staff/results/review/99999/return", ["hod"], {}),
    row("GET", "/staff/results/computed?programme_id=99999&session=2024/2025&semester=1", [
      "exams",
    ]),
    row("POST", "/staff/results/publish", ["exams"], {}),
    row("GET", "/staff/results/overview?session=2024/2025&semester=1", ["exams"]),
    row("GET", "/staff/results/grading-schemes", ["exams"]),
    row("GET", "/staff/results/sessions", ["exams"]),
    row("POST", "/staff/results/grading-schemes", ["exams"], {}),
    row("POST", "/staff/results/offerings/99999/amendments", ["lecturer"], {}),
    row("GET", "/staff/results/amendments", ["lecturer", "hod", "exams"]),
    row("POST", "/staff/results/amendments/99999/hod", ["hod"], {}),
    row("POST", "/staff/results/amendments/99999/exams", ["exams"], {}),
    row("GET", "/staff/results/offerings?session=2024/2025&semester=1", ["registry"]),
    row("GET", "/staff/results/offerings/99999/scores.csv", ["lecturer"]),
    { ...row("POST", "/staff/results/offerings/99999/scores/import", ["lecturer"]), form: true },
  ],
  [200, 400, 404],
);
