import { Hono } from "hono";
import { z } from "zod";
import { RecordId } from "../../../common/validation/lists.ts";
import { eq } from "drizzle-orm";
import type { ApiDeps } from "../../deps.ts";
import { academicSessions } from "../../db/schema.ts";
import type { ApiEnv } from "../../http/context.ts";
import { readJson, readParams, readQuery } from "../../http/validate.ts";
import { formatNaira, koboToNaira } from "../../../common/format/money.ts";
import { spelledDate } from "../../../common/courses/registration-window.ts";
import { koboToNairaText } from "../../../common/payments/naira-input.ts";
import {
  ALL,
  FEE_CSV_HEADER,
  FeeChange,
  FeeQuery,
  FeeRequest,
  LateFeesRequest,
  OtherFeeRequest,
} from "../../../common/payments/fee-schedule.ts";
import { OTHER_FEE_KINDS } from "../../../common/payments/fee-kinds.ts";
import { changedFields, recordAudit } from "../../audit/audit.ts";
import { parseCsv, toCsv } from "../../csv/csv-file.ts";
import { readCsvUpload } from "../../csv/csv-upload.ts";
import { answerImport } from "../../csv/import-report.ts";
import { requireStaff } from "../../auth/require-staff.ts";
import { SessionIdParam, findSessionById } from "../../academic-sessions/session-routes.ts";
import { runImport } from "../../structure/import-plan.ts";
import { withUniqueNames } from "../../structure/structure-checks.ts";
import { loadModes, requireMode } from "../../structure/modes.ts";
import { assertProgrammeExists, assertSessionExists } from "./fee-keys.ts";
import { feePage, feesInForce } from "./fee-list.ts";
import { planFeeImport } from "./fee-import.ts";
import { addFee, changeFee } from "./fee-writes.ts";
import { refuseGatewaysNotOffered } from "../gateway-choice.ts";
import { setOtherFee } from "./other-fees.ts";
import { gatewaysInWords } from "./fee-list.ts";
import { feeSplitPage, setFeeSplit } from "./fee-split.ts";
import { FeeSplitRequest } from "../../../common/payments/fee-split.ts";
import { formatKobo } from "../../../common/payments/bursary.ts";

const FeeIdParam = z.object({ id: RecordId("No such fee.") });

/** The bursary's fee schedule: list, add, change while unpaid, CSV in and out, late-fees days (decision 095). */
export function feeRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const bursar = requireStaff(deps, { roles: ["bursar"] });
  const readers = requireStaff(deps, { roles: ["bursar", "admin"] });
  const author = (staffId: number) => ({ staffId, at: now() });

  app.get("/staff/fees", readers, async (c) => c.json(await feePage(deps, readQuery(c, FeeQuery))));

  app.get("/staff/fees/export", readers, async (c) => {
    const { page: _page, ...filters } = readQuery(c, FeeQuery);
    const rows = await feesInForce(db, filters);
    const cells = rows.map(({ fee, programme }) => [
      fee.session,
      programme ?? ALL,
      fee.level,
      fee.studyMode ?? ALL,
      fee.paymentOption,
      koboToNairaText(fee.amountKobo),
    ]);
    c.header("content-type", "text/csv; charset=utf-8");
    c.header("content-disposition", 'attachment; filename="fee-schedule.csv"');
    return c.body(toCsv(FEE_CSV_HEADER, cells));
  });

  app.post("/staff/fees", bursar, async (c) => {
    const request = await readJson(c, FeeRequest);
    refuseGatewaysNotOffered(deps, request.gateways);
    const studyMode =
      request.study_mode === null
        ? null
        : requireMode(await loadModes(db), "study", request.study_mode, "study_mode");
    const values = {
      session: request.session,
      programmeId: request.programme_id,
      level: request.level,
      studyMode,
      paymentOption: request.payment_option,
      amountKobo: request.amount_naira,
      allowedGateways: request.gateways,
    };
    const { fee, replaced, replacedWasSplit } = await withUniqueNames(() =>
      db.transaction(async (tx) => {
        await assertSessionExists(tx, values.session);
        await assertProgrammeExists(tx, values.programmeId);
        return addFee(tx, author(c.var.staff.id), values);
      }),
    );
    const amount = formatNaira(koboToNaira(fee.amountKobo));
    const message = replaced
      ? `New fee of ${amount} saved; it replaces the paid fee of ${formatNaira(koboToNaira(replaced.amountKobo))} for payments started from now on.${replacedWasSplit ? " The old fee's split between accounts on Remita is not carried over: set one for the new fee on its page." : ""}`
      : `Fee of ${amount} saved.`;
    return c.json({ status: "success", message, data: { id: fee.id } }, 201);
  });

  app.post("/staff/fees/other", bursar, async (c) => {
    const { kind, amount_naira: amountKobo, gateways } = await readJson(c, OtherFeeRequest);
    if (gateways) refuseGatewaysNotOffered(deps, gateways);
    const outcome = await withUniqueNames(() =>
      db.transaction((tx) =>
        setOtherFee(tx, author(c.var.staff.id), kind, { amountKobo, allowedGateways: gateways }),
      ),
    );
    const label = OTHER_FEE_KINDS.find((entry) => entry.kind === kind)!.label;
    const amount = formatNaira(koboToNaira(amountKobo));
    const message =
      outcome === "replaced"
        ? `${label} is now ${amount} for payments started from now on; receipts already paid keep the old amount.`
        : `${label} is now ${amount}.`;
    return c.json({ status: "success", message });
  });

  app.patch("/staff/fees/:id", bursar, async (c) => {
    const { id } = readParams(c, FeeIdParam);
    const { amount_naira: amountKobo, gateways } = await readJson(c, FeeChange);
    if (gateways) refuseGatewaysNotOffered(deps, gateways);
    const fee = await db.transaction((tx) =>
      changeFee(tx, author(c.var.staff.id), id, { amountKobo, allowedGateways: gateways }),
    );
    const message =
      amountKobo === undefined
        ? `Students can pay this fee through ${gatewaysInWords(deps, fee.allowedGateways)}.`
        : `The fee is now ${formatNaira(koboToNaira(fee.amountKobo))}.`;
    return c.json({ status: "success", message });
  });

  // How Remita splits the fee's payments between accounts (decision 190).
  app.get("/staff/fees/:id/split", readers, async (c) =>
    c.json({ data: await feeSplitPage(db, readParams(c, FeeIdParam).id) }),
  );

  app.put("/staff/fees/:id/split", bursar, async (c) => {
    const { id } = readParams(c, FeeIdParam);
    const request = await readJson(c, FeeSplitRequest);
    const { amountKobo, items, changed } = await db.transaction((tx) =>
      setFeeSplit(tx, author(c.var.staff.id), id, request),
    );
    const message = !changed
      ? "The split is as it was; nothing changed."
      : items.length
        ? `The fee's ${formatKobo(amountKobo)} is now split between ${items.length === 1 ? "one account" : `${items.length} accounts`} on Remita, for RRRs generated from now on.`
        : "The fee is no longer split: RRRs generated from now on pay all of it into the college's Remita account.";
    return c.json({ status: "success", message });
  });

  app.post("/staff/fees/import", bursar, async (c) => {
    const { text, dryRun } = await readCsvUpload(c);
    const rows = parseCsv(text, FEE_CSV_HEADER);
    const by = author(c.var.staff.id);
    const report = await runImport(db, dryRun, by, (tx) => planFeeImport(tx, rows), {
      action: "fee.import",
      entity: "fee_import",
    });
    deps.logger.info("fee import", {
      staffId: by.staffId,
      dryRun,
      written: report.written,
      rejected: report.rejected.length,
    });
    return answerImport(c, report);
  });

  app.patch("/staff/sessions/:id/late-fees", bursar, async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const { late_fees_from: lateFeesFrom } = await readJson(c, LateFeesRequest);
    const session = await db.transaction(async (tx) => {
      const existing = await findSessionById(tx, id);
      const diff = changedFields(existing, { lateFeesFrom });
      if (!diff.changed) return existing;
      await tx.update(academicSessions).set({ lateFeesFrom }).where(eq(academicSessions.id, id));
      const change = {
        staffId: c.var.staff.id,
        action: "session.late_fees",
        entity: "academic_session",
        entityId: id,
      };
      await recordAudit(tx, { ...change, before: diff.before, after: diff.after }, now());
      return existing;
    });
    const message = lateFeesFrom
      ? `Late fees for ${session.name} apply from ${spelledDate(lateFeesFrom)}.`
      : `No late fees apply in ${session.name}.`;
    return c.json({ status: "success", message });
  });

  return app;
}
