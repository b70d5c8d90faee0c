import { Hono } from "hono";
import { asc, count, eq, isNotNull } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Database, Transaction } from "../db/client.ts";
import { entryModes, feeSchedule, studyModes, students } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams } from "../http/validate.ts";
import { RecordId } from "../../common/validation/lists.ts";
import {
  MODE_KINDS,
  ModeKindParam,
  ModeRequest,
  modeKey,
  unknownMode,
  type ModeKind,
  type ModeLists,
  type StaffMode,
} from "../../common/structure/modes.ts";
import { recordAudit } from "../audit/audit.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { withUniqueNames } from "./structure-checks.ts";

const TABLES = { study: studyModes, entry: entryModes } as const;

/** One list of modes, looked up by any spelling with the same key (decision 154). */
export type ModeDirectory = {
  names: string[];
  /** The list's spelling of `written`, or undefined when the list has no such mode. */
  find: (written: string) => string | undefined;
  unknown: (written: string) => string;
};

function directory(kind: ModeKind, names: string[]): ModeDirectory {
  const byKey = new Map(names.map((name) => [modeKey(name), name]));
  return {
    names,
    find: (written) => byKey.get(modeKey(written)),
    unknown: (written) => unknownMode(kind, written, names),
  };
}

/** Both lists, for an import or a form that names modes. */
export async function loadModes(
  db: Database | Transaction,
): Promise<Record<ModeKind, ModeDirectory>> {
  const [study, entry] = await Promise.all(
    (["study", "entry"] as const).map((kind) =>
      db.select({ name: TABLES[kind].name }).from(TABLES[kind]).orderBy(asc(TABLES[kind].name)),
    ),
  );
  return {
    study: directory(
      "study",
      study!.map((row) => row.name),
    ),
    entry: directory(
      "entry",
      entry!.map((row) => row.name),
    ),
  };
}

/** The list's spelling of a mode, or a 400 naming the field and the modes on the list. */
export function requireMode(
  modes: Record<ModeKind, ModeDirectory>,
  kind: ModeKind,
  written: string,
  field: string,
): string {
  const name = modes[kind].find(written);
  if (name === undefined) {
    const message = modes[kind].unknown(written);
    throw new ApiError(400, message, { fields: { [field]: message } });
  }
  return name;
}

async function modeList(db: Database, kind: ModeKind): Promise<StaffMode[]> {
  const table = TABLES[kind];
  const column = kind === "study" ? students.studyMode : students.entryMode;
  const [modes, used, fees] = await Promise.all([
    db.select({ id: table.id, name: table.name }).from(table).orderBy(asc(table.name)),
    db.select({ name: column, students: count() }).from(students).groupBy(column),
    kind === "study"
      ? db
          .select({ name: feeSchedule.studyMode, fees: count() })
          .from(feeSchedule)
          .where(isNotNull(feeSchedule.studyMode))
          .groupBy(feeSchedule.studyMode)
      : Promise.resolve([]),
  ]);
  const studentsOf = new Map(used.map((row) => [row.name, row.students]));
  const feesOf = new Map(fees.map((row) => [row.name, row.fees]));
  return modes.map((mode) => ({
    ...mode,
    students: studentsOf.get(mode.name) ?? 0,
    fees: feesOf.get(mode.name) ?? 0,
  }));
}

/** The mode on the list that `name` would be the same as, other than `exceptId`. */
async function sameMode(tx: Transaction, kind: ModeKind, name: string, exceptId?: number) {
  const table = TABLES[kind];
  const [row] = await tx
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(eq(table.key, modeKey(name)));
  return row && row.id !== exceptId ? row : undefined;
}

const IdParam = ModeKindParam.extend({ id: RecordId("No such mode.") });

/**
 * The registry's lists of study and entry modes (decision 154): any staff page that names a
 * mode reads them; the registry adds and renames. A rename follows into every student and fee
 * that names the mode (the foreign keys cascade), so nothing is left with the old spelling.
 * A mode is never deleted: students and paid fees name it.
 */
export function modeRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: ["registry"] });

  app.get("/staff/modes", requireStaff(deps), async (c) => {
    const lists: ModeLists = {
      study: await modeList(db, "study"),
      entry: await modeList(db, "entry"),
    };
    return c.json({ data: lists });
  });

  app.post("/staff/modes/:kind", registry, async (c) => {
    const { kind } = readParams(c, ModeKindParam);
    const { name } = await readJson(c, ModeRequest);
    const { label } = MODE_KINDS[kind];
    const saved = await withUniqueNames(() =>
      db.transaction(async (tx) => {
        const same = await sameMode(tx, kind, name);
        if (same)
          throw new ApiError(
            409,
            `"${name}" is the same ${label} as "${same.name}", already on the list (capitals, spaces and hyphens aside).`,
            { fields: { name: "Already on the list." } },
          );
        const [row] = await tx
          .insert(TABLES[kind])
          .values({ name })
          .returning({ id: TABLES[kind].id, name: TABLES[kind].name });
        await recordAudit(
          tx,
          {
            staffId: c.var.staff.id,
            action: `${kind}_mode.create`,
            entity: `${kind}_mode`,
            entityId: row!.id,
            after: { name },
          },
          now(),
        );
        return row!;
      }),
    );
    return c.json(
      {
        status: "success",
        message: `${label[0]!.toUpperCase()}${label.slice(1)} "${saved.name}" added.`,
        data: saved,
      },
      201,
    );
  });

  app.patch("/staff/modes/:kind/:id", registry, async (c) => {
    const { kind, id } = readParams(c, IdParam);
    const { name } = await readJson(c, ModeRequest);
    const table = TABLES[kind];
    const { label } = MODE_KINDS[kind];
    const outcome = await withUniqueNames(() =>
      db.transaction(async (tx) => {
        const [existing] = await tx
          .select({ id: table.id, name: table.name })
          .from(table)
          .where(eq(table.id, id))
          .for("update");
        if (!existing) throw new ApiError(404, `There is no such ${label}. Reload the list.`);
        if (existing.name === name) return { existing, changed: false };
        const same = await sameMode(tx, kind, name, id);
        if (same)
          throw new ApiError(
            409,
            `"${name}" is the same ${label} as "${same.name}", already on the list (capitals, spaces and hyphens aside).`,
            { fields: { name: "Already on the list." } },
          );
        await tx.update(table).set({ name }).where(eq(table.id, id));
        await recordAudit(
          tx,
          {
            staffId: c.var.staff.id,
            action: `${kind}_mode.update`,
            entity: `${kind}_mode`,
            entityId: id,
            before: { name: existing.name },
            after: { name },
          },
          now(),
        );
        return { existing, changed: true };
      }),
    );
    const message = outcome.changed
      ? `Renamed: "${outcome.existing.name}" is now "${name}", on every student${kind === "study" ? " and fee" : ""} that had it.`
      : "Nothing changed: the list already spells it so.";
    return c.json({ status: "success", message });
  });

  return app;
}

/** For tests and the demo data: puts names on a list unless a spelling of them is there already. */
export async function ensureModes(db: Database | Transaction, kind: ModeKind, names: string[]) {
  for (const name of names) {
    await db.insert(TABLES[kind]).values({ name }).onConflictDoNothing();
  }
}
