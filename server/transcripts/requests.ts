import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { payments, transcriptRequests } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import type { SignedInStudent } from "../auth/sessions.ts";
import { lockStudent } from "../students/student-lock.ts";
import { gatewayDidNotStart } from "../payments/school-fee.ts";
import { GatewayError } from "../payments/gateway.ts";
import { gatewayForNewPayment, usableGateways } from "../payments/gateway-choice.ts";
import { gatewayOfChannel } from "../../common/payments/channels.ts";
import { otherFeeInForce } from "../payments/fee-schedule.ts";
import { paystackEmail } from "../payments/payer-address.ts";
import { newPaymentReference } from "../payments/reference.ts";
import { recordPaymentEvent } from "../payments/payment-events.ts";
import { recordAudit } from "../audit/audit.ts";
import { TRANSCRIPT_OPTION } from "../../common/payments/fee-kinds.ts";
import type { SchoolFeeAnswer } from "../../common/payments/fee-request.ts";
import type {
  MyTranscripts,
  TranscriptRequestBody,
  TranscriptState,
} from "../../common/transcripts/transcripts.ts";
import { transcriptUrl } from "./transcript-token.ts";

type Student = Pick<SignedInStudent, "id" | "email" | "level" | "placement">;

/** Requests not yet paid a student may hold at once: enough for several institutions, not a flood. */
export const MOST_UNPAID_REQUESTS = 5;

/** Another student's request is answered as one that does not exist. */
export const NO_SUCH_REQUEST = "There is no such transcript request.";

const CANCELLED =
  "This transcript request is cancelled. Request a transcript again to have one sent.";

export const NO_TRANSCRIPT_FEE =
  "The bursary has not set the transcript fee yet, so a transcript cannot be requested now. Please try again later or ask the bursary.";

/** A transcript is paid by card at Paystack's checkout; a fee the bursar keeps from Paystack cannot be. */
const NO_CARD_GATEWAY =
  "The bursary takes the transcript fee through a gateway that cannot take it here, so it cannot be paid online now. Please ask the bursary.";

/** The student's transcript requests with where each stands, and what a new one costs. */
export async function myTranscripts(
  deps: Pick<ApiDeps, "db" | "publicOrigin" | "slipSigningKey">,
  student: Pick<Student, "id" | "email">,
): Promise<MyTranscripts> {
  const [fee, rows] = await Promise.all([
    otherFeeInForce(deps.db, "transcript"),
    deps.db
      .select()
      .from(transcriptRequests)
      .where(eq(transcriptRequests.studentId, student.id))
      .orderBy(desc(transcriptRequests.requestedAt), desc(transcriptRequests.id)),
  ]);
  const paid = rows.length
    ? await deps.db
        .select({
          requestId: payments.transcriptRequestId,
          reference: payments.reference,
          status: payments.status,
        })
        .from(payments)
        .where(
          inArray(
            payments.transcriptRequestId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(desc(payments.generatedAt), desc(payments.id))
    : [];
  return {
    fee_kobo: fee?.amountKobo ?? null,
    own_email: student.email,
    requests: rows.map((row) => {
      const own = paid.filter((payment) => payment.requestId === row.id);
      const credited = own.find((payment) => payment.status === "success");
      const state: TranscriptState = row.releasedAt
        ? "released"
        : row.cancelledAt
          ? "cancelled"
          : credited
            ? "awaiting_release"
            : "awaiting_payment";
      const pending =
        state === "awaiting_payment"
          ? (own.find((payment) => payment.status === "pending")?.reference ?? null)
          : null;
      return {
        id: row.id,
        recipient: row.recipient as "self" | "institution",
        institution_name: row.institutionName,
        recipient_email: row.recipientEmail,
        requested_at: row.requestedAt.toISOString(),
        state,
        pending_payment: pending,
        reference: row.reference,
        released_at: row.releasedAt?.toISOString() ?? null,
        cancelled_at: row.cancelledAt?.toISOString() ?? null,
        paid_after_cancelling: state === "cancelled" ? (credited?.reference ?? null) : null,
        url: row.reference
          ? transcriptUrl(deps.publicOrigin, row.reference, deps.slipSigningKey)
          : null,
      };
    }),
  };
}

/**
 * Records a request, refused while no transcript fee is set (it could not be paid), to "myself"
 * when the record has no e-mail address, and beyond a few unpaid ones. The student's row is
 * locked so two quick posts count each other.
 */
export async function requestTranscript(
  deps: Pick<ApiDeps, "db" | "now">,
  student: Student,
  body: TranscriptRequestBody,
): Promise<{ id: number }> {
  if (!(await otherFeeInForce(deps.db, "transcript"))) throw new ApiError(409, NO_TRANSCRIPT_FEE);
  if (body.recipient === "self" && !student.email) {
    const message =
      "Your record has no e-mail address to send the transcript to. Add one on the Biodata page, or send it to an institution.";
    throw new ApiError(400, message, { fields: { recipient: message } });
  }
  return deps.db.transaction(async (tx) => {
    await lockStudent(tx, student.id);
    const [unpaid] = await tx
      .select({ value: sql<number>`count(*)::int` })
      .from(transcriptRequests)
      .where(
        and(
          eq(transcriptRequests.studentId, student.id),
          isNull(transcriptRequests.releasedAt),
          isNull(transcriptRequests.cancelledAt),
          sql`not exists (select 1 from ${payments} where ${payments.transcriptRequestId} = ${transcriptRequests.id} and ${payments.status} = 'success')`,
        ),
      );
    if ((unpaid?.value ?? 0) >= MOST_UNPAID_REQUESTS) {
      throw new ApiError(
        409,
        `You have ${MOST_UNPAID_REQUESTS} transcript requests waiting for payment. Pay for one of them before asking for another.`,
      );
    }
    const [row] = await tx
      .insert(transcriptRequests)
      .values({
        studentId: student.id,
        recipient: body.recipient,
        institutionName: body.recipient === "institution" ? body.institutionName : null,
        recipientEmail: body.recipient === "institution" ? body.email : student.email!,
        requestedAt: deps.now(),
      })
      .returning({ id: transcriptRequests.id });
    return row!;
  });
}

/**
 * Starts paying for a request at the gateway's checkout, as a school fee is paid (decision 182):
 * a pending `transcript` payment naming the request, at the transcript fee in force. Crediting is
 * `applyProviderResult`'s, through verify, the webhook and the reconciler alike. A request
 * already paid answers "success".
 */
export async function payForTranscript(
  deps: ApiDeps,
  student: Student,
  requestId: number,
): Promise<SchoolFeeAnswer> {
  const [request] = await deps.db
    .select()
    .from(transcriptRequests)
    .where(and(eq(transcriptRequests.id, requestId), eq(transcriptRequests.studentId, student.id)));
  if (!request) throw new ApiError(404, NO_SUCH_REQUEST);
  if (request.cancelledAt) throw new ApiError(409, CANCELLED);
  const [credited] = await deps.db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.transcriptRequestId, request.id), eq(payments.status, "success")));
  if (credited || request.releasedAt) return { status: "success", message: "Payment already made" };
  const fee = await otherFeeInForce(deps.db, "transcript");
  if (!fee) throw new ApiError(409, NO_TRANSCRIPT_FEE);
  // Paid at a checkout, by card: refused, before anything is written, when the bursar allows the
  // transcript fee only gateways that take no card here (Remita's RRR is for school fees).
  const usable = usableGateways(deps.offeredGateways, fee.allowedGateways);
  if (usable.length && !usable.includes(gatewayOfChannel("card")))
    throw new ApiError(409, NO_CARD_GATEWAY);
  const gateway = gatewayForNewPayment(deps, "card", fee.allowedGateways);
  const reference = newPaymentReference(deps.now());
  const [payment] = await deps.db
    .insert(payments)
    .values({
      reference,
      studentId: student.id,
      kind: "transcript",
      transcriptRequestId: request.id,
      paymentOption: TRANSCRIPT_OPTION,
      // Where the student stood when they paid; a transcript fee belongs to no level or session.
      level: student.level,
      session: student.placement.currentSession ?? "",
      feeId: fee.id,
      amountKobo: fee.amountKobo,
      gateway: gateway.name,
      generatedAt: deps.now(),
    })
    .returning({ id: payments.id });
  const opened = { paymentId: payment!.id, reference };
  try {
    const { authorizationUrl } = await gateway.startCheckout({
      reference,
      amountKobo: fee.amountKobo,
      email: paystackEmail(student),
      // Back to the Transcript page, which asks the gateway through the same verify as Payments.
      callbackUrl: `${deps.publicOrigin}/transcript`,
      metadata: {
        student_id: student.id,
        payment_kind: "transcript",
        transcript_request_id: request.id,
      },
    });
    await deps.db.transaction(async (tx) => {
      await tx.update(payments).set({ authorizationUrl }).where(eq(payments.id, opened.paymentId));
      await recordPaymentEvent(tx, opened.paymentId, "initialised", deps.now(), {
        amount_kobo: fee.amountKobo,
        kind: "transcript",
        transcript_request_id: request.id,
      });
    });
    return {
      status: "pending",
      message: "Payment initialized",
      authorization_url: authorizationUrl,
      reference,
    };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return gatewayDidNotStart(deps, gateway, opened, error);
  }
}

/**
 * Cancels a request its student has not paid for (decision 186): refused once a payment for it is
 * credited or it is released, and for another student's request as for one that does not exist.
 * The student's row is locked as crediting locks it, so a payment credited a moment before is
 * seen here, and one credited after finds the request cancelled: it is kept as money received and
 * flagged for the bursary to refund, never released (`flagIfRequestCancelled`). Audited as the
 * student's act, with the payments still open for it.
 */
export async function cancelTranscript(
  deps: Pick<ApiDeps, "db" | "now">,
  student: Pick<Student, "id">,
  requestId: number,
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await lockStudent(tx, student.id);
    const [request] = await tx
      .select()
      .from(transcriptRequests)
      .where(
        and(eq(transcriptRequests.id, requestId), eq(transcriptRequests.studentId, student.id)),
      );
    if (!request) throw new ApiError(404, NO_SUCH_REQUEST);
    if (request.cancelledAt)
      throw new ApiError(409, "This transcript request is cancelled already.");
    if (request.releasedAt) {
      throw new ApiError(409, "This transcript was released, so it cannot be cancelled.");
    }
    const own = await tx
      .select({ reference: payments.reference, status: payments.status })
      .from(payments)
      .where(eq(payments.transcriptRequestId, request.id));
    if (own.some((payment) => payment.status === "success")) {
      throw new ApiError(
        409,
        "This transcript request is paid for, so it cannot be cancelled: the exams office will release it.",
      );
    }
    await tx
      .update(transcriptRequests)
      .set({ cancelledAt: now })
      .where(eq(transcriptRequests.id, request.id));
    const pending = own.filter((payment) => payment.status === "pending");
    await recordAudit(
      tx,
      {
        staffId: null,
        byStudentId: student.id,
        action: "transcript.cancel",
        entity: "transcript_request",
        entityId: request.id,
        before: { status: "awaiting_payment" },
        after: {
          status: "cancelled",
          ...(pending.length ? { pending_payments: pending.map((p) => p.reference) } : {}),
        },
      },
      now,
    );
  });
}
