import { randomBytes } from "node:crypto";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import {
  departments,
  faculties,
  payments,
  programmes,
  students,
  transcriptRequests,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { myResults } from "../results/student-results.ts";
import { schemeFor } from "../results/grading-scheme.ts";
import { certificateClass } from "../../common/results/grading.ts";
import type { MailMessage } from "../mail/mailer.ts";
import type { StaffTranscripts, TranscriptSnapshot } from "../../common/transcripts/transcripts.ts";
import { transcriptUrl } from "./transcript-token.ts";

/** The latest released transcripts the exams office sees under what waits. */
const RELEASED_SHOWN = 20;

const fullName = (row: { surname: string; othername: string }) =>
  `${row.surname.toUpperCase()}, ${row.othername}`;

/** Paid requests waiting for the exams office, oldest first, and the latest released. */
export async function transcriptsForExams(db: ApiDeps["db"]): Promise<StaffTranscripts> {
  const waiting = await db
    .select({
      request: transcriptRequests,
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
      programme: programmes.name,
      paidAt: payments.paidAt,
      paymentReference: payments.reference,
    })
    .from(transcriptRequests)
    .innerJoin(
      payments,
      and(eq(payments.transcriptRequestId, transcriptRequests.id), eq(payments.status, "success")),
    )
    .innerJoin(students, eq(students.id, transcriptRequests.studentId))
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    // A request cancelled before a late payment came in is the bursary's to refund (decision 186).
    .where(and(isNull(transcriptRequests.releasedAt), isNull(transcriptRequests.cancelledAt)))
    .orderBy(payments.paidAt, transcriptRequests.id);
  const released = await db
    .select({
      request: transcriptRequests,
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
    })
    .from(transcriptRequests)
    .innerJoin(students, eq(students.id, transcriptRequests.studentId))
    .where(isNotNull(transcriptRequests.releasedAt))
    .orderBy(desc(transcriptRequests.releasedAt), desc(transcriptRequests.id))
    .limit(RELEASED_SHOWN);
  return {
    awaiting_release: waiting.map((row) => ({
      id: row.request.id,
      student_name: fullName(row),
      matric_no: row.matricNo,
      programme: row.programme,
      recipient: row.request.recipient as "self" | "institution",
      institution_name: row.request.institutionName,
      recipient_email: row.request.recipientEmail,
      requested_at: row.request.requestedAt.toISOString(),
      paid_at: (row.paidAt ?? row.request.requestedAt).toISOString(),
      payment_reference: row.paymentReference,
    })),
    released: released.map((row) => ({
      id: row.request.id,
      student_name: fullName(row),
      matric_no: row.matricNo,
      recipient_email: row.request.recipientEmail,
      reference: row.request.reference!,
      released_at: row.request.releasedAt!.toISOString(),
    })),
  };
}

/**
 * The transcript as the record stands now: names and programme from the student's record, every
 * published semester (oldest first) with its courses, GPA and CGPA, and the class of certificate
 * the last CGPA earns by the newest semester's scheme. The fee gate does not apply: a transcript
 * is paid for.
 */
export async function transcriptNow(
  db: ApiDeps["db"],
  studentId: number,
): Promise<TranscriptSnapshot> {
  const [student] = await db
    .select({
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
      programme: programmes.name,
      department: departments.name,
      school: faculties.name,
      studyMode: students.studyMode,
      entrySession: students.entrySession,
    })
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .innerJoin(departments, eq(departments.id, students.departmentId))
    .innerJoin(faculties, eq(faculties.id, departments.facultyId))
    .where(eq(students.id, studentId));
  const results = await myResults(db, studentId, false);
  const semesters = [...results.semesters].reverse();
  const last = semesters.at(-1);
  const scheme = last ? await schemeFor(db, last.session) : null;
  return {
    surname: student!.surname,
    othername: student!.othername,
    matric_no: student!.matricNo,
    programme: student!.programme,
    department: student!.department,
    school: student!.school,
    study_mode: student!.studyMode,
    entry_session: student!.entrySession,
    semesters: semesters.map((semester) => ({
      session: semester.session,
      semester: semester.semester,
      units: semester.units,
      gpa: semester.gpa,
      cgpa: semester.cgpa,
      courses: semester.courses.map(({ amendments: _amendments, ...course }) => course),
    })),
    total_units: last?.cumulative_units ?? 0,
    cgpa: last?.cgpa ?? null,
    certificate_class: last && scheme ? certificateClass(scheme, last.cgpa) : null,
  };
}

// No I, L, O or U: a reference read over the phone or typed from paper is unambiguous.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A transcript's reference such as TR-2025-7K3QX9M2PZ: the year, then 50 random bits. */
export function newTranscriptReference(now: Date): string {
  const random = Array.from(randomBytes(10), (byte) => ALPHABET[byte % 32]).join("");
  return `TR-${now.getUTCFullYear()}-${random}`;
}

/** The mail that carries the transcript's link to its recipient. */
export function transcriptMail(
  to: string,
  snapshot: TranscriptSnapshot,
  reference: string,
  url: string,
  institutionName: string | null,
): MailMessage {
  const name = `${snapshot.othername} ${snapshot.surname}`;
  return {
    to,
    subject: `Transcript of ${name} (${reference})`,
    text: [
      institutionName ? `Dear ${institutionName},` : `Dear ${name},`,
      "",
      institutionName
        ? `At the request of ${name} (${snapshot.matric_no ?? "no matric number"}), the college sends you their academic transcript.`
        : "The college has released the academic transcript you asked for.",
      "",
      "Open and print the transcript at:",
      url,
      "",
      `Reference: ${reference}`,
      "",
      "Anyone can check that a transcript is genuine on the portal's transcript check page with this reference and the student's matric number.",
    ].join("\n"),
  };
}

/**
 * Releases a paid request (exams office): writes the transcript as it stands now, a reference and
 * who released it, audits it and queues the link's mail, all in one transaction. Refused before
 * payment, and a second time; the conditional update holds under a race.
 */
export async function releaseTranscript(
  deps: Pick<ApiDeps, "db" | "now" | "jobs" | "publicOrigin" | "slipSigningKey">,
  staffId: number,
  requestId: number,
): Promise<{ reference: string; recipientEmail: string }> {
  const [request] = await deps.db
    .select()
    .from(transcriptRequests)
    .where(eq(transcriptRequests.id, requestId));
  if (!request) throw new ApiError(404, "There is no such transcript request.");
  if (request.releasedAt) {
    throw new ApiError(409, `This transcript was released already (${request.reference}).`);
  }
  if (request.cancelledAt) {
    throw new ApiError(
      409,
      "The student cancelled this request, so it is not released. A payment for it is the bursary's to refund.",
    );
  }
  const snapshot = await transcriptNow(deps.db, request.studentId);
  const now = deps.now();
  const reference = newTranscriptReference(now);
  return deps.db.transaction(async (tx: Transaction) => {
    const [paid] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.transcriptRequestId, requestId), eq(payments.status, "success")));
    if (!paid) {
      throw new ApiError(
        409,
        "This transcript has not been paid for yet: it can be released once the payment is credited.",
      );
    }
    const [released] = await tx
      .update(transcriptRequests)
      .set({ releasedAt: now, releasedBy: staffId, reference, snapshot })
      .where(
        and(
          eq(transcriptRequests.id, requestId),
          isNull(transcriptRequests.releasedAt),
          isNull(transcriptRequests.cancelledAt),
        ),
      )
      .returning();
    if (!released) throw new ApiError(409, "This transcript was released a moment ago.");
    await recordAudit(
      tx,
      {
        staffId,
        action: "transcript.release",
        entity: "transcript_request",
        entityId: requestId,
        before: null,
        after: { reference, recipient_email: released.recipientEmail },
      },
      now,
    );
    const url = transcriptUrl(deps.publicOrigin, reference, deps.slipSigningKey);
    await deps.jobs.sendMail(
      tx,
      transcriptMail(released.recipientEmail, snapshot, reference, url, released.institutionName),
    );
    return { reference, recipientEmail: released.recipientEmail };
  });
}
