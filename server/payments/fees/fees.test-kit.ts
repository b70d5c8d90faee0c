import { eq } from "drizzle-orm";
import { auditLog, feeSchedule } from "../../db/schema.ts";
import { insertSchool } from "../../db/factories.ts";
import { choice, createPaymentsKit } from "../payments.test-kit.ts";
import type { HarnessOverrides } from "../../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";
import { ensureModes } from "../../structure/modes.ts";

/** The payments kit (fees seeded for all programmes) with a signed-in bursar (token and id) and a second programme. */
export async function createFeesKit(overrides: HarnessOverrides = {}) {
  const kit = await createPaymentsKit(overrides);
  const { api } = kit;
  const bursarMember = await createStaff(api, { roles: ["bursar"], totp: true });
  const bursar = await staffSignIn(api, bursarMember);
  const languages = await insertSchool(api.db, {
    name: "School of Languages",
    departments: ["English"],
    programmes: ["NCE English/French"],
  });
  // The registry's study modes: "Part-Time" is spelt with a hyphen, so fees written "Part Time" test the matching.
  await ensureModes(api.db, "study", ["Part-Time"]);
  const biology = api.school.programmes[0]!.id;
  const english = languages.programmes[0]!.id;

  const send = (method: string, path: string, json: unknown, token = bursar) =>
    api.request(path, { method, token, json });
  const upload = (csv: string, dryRun: boolean, token = bursar) => {
    const form = new FormData();
    form.set("file", new File([csv], "fees.csv", { type: "text/csv" }));
    form.set("dry_run", String(dryRun));
    return api.request("/staff/fees/import", { method: "POST", body: form, token });
  };
  /** The naira a student is quoted, or the refusal's message. */
  async function quote(token: string, option = "full", level = 100, session = "2024/2025") {
    const body = await (
      await kit.post("/student/generate-payment", token, {
        payment_name: "schoolfees",
        ...choice(option, level, session),
      })
    ).json();
    return body.data?.amount ?? body.message;
  }
  const feeRows = () => api.db.select().from(feeSchedule);
  const audits = (action: string) =>
    api.db.select().from(auditLog).where(eq(auditLog.action, action));
  return {
    ...kit,
    bursar,
    bursarId: bursarMember.id,
    biology,
    english,
    send,
    upload,
    quote,
    feeRows,
    audits,
  };
}
export type FeesKit = Awaited<ReturnType<typeof createFeesKit>>;
