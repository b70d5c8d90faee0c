import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { PayInstructions } from "../../common/payments/offline-payment.ts";
import type { GatewayName } from "../payments/gateway.ts";
import type { GradingScheme, SpecialMark } from "../../common/results/grading.ts";
import type { FeeKind } from "../../common/payments/fee-kinds.ts";
import type { TranscriptSnapshot } from "../../common/transcripts/transcripts.ts";

const id = () => integer().primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

// ── Academic structure ────────────────────────────────────────────────────────

/** A school (faculty) of the college, e.g. "School of Sciences". */
export const faculties = pgTable("faculties", {
  id: id(),
  name: text().notNull().unique(),
});

export const departments = pgTable("departments", {
  id: id(),
  name: text().notNull().unique(),
  facultyId: integer()
    .notNull()
    .references(() => faculties.id),
});

/** A programme a student is admitted to, e.g. "NCE Biology/Chemistry" or a B.Sc.(Ed.) in affiliation. */
export const programmes = pgTable(
  "programmes",
  {
    id: id(),
    name: text().notNull().unique(),
    facultyId: integer()
      .notNull()
      .references(() => faculties.id),
    /**
     * The level of the programme's last year: promotion marks students here as graduating instead
     * of moving them up (NCE: 300; a four-year degree: 400). Set per programme by the registry.
     */
    finalLevel: integer().notNull().default(400),
  },
  (table) => [
    check(
      "programmes_final_level_is_a_level",
      sql`${table.finalLevel} in (100, 200, 300, 400, 500)`,
    ),
  ],
);

/**
 * Academic sessions such as "2024/2025". Exactly one is current (the one fees, registration and
 * the dashboard mean by default); registration changes only while course_modifiable and, when
 * dates are set, from the opening day to the closing day inclusive (college time).
 */
export const academicSessions = pgTable(
  "academic_sessions",
  {
    id: id(),
    name: text().notNull().unique(),
    courseModifiable: boolean().notNull().default(false),
    isCurrent: boolean().notNull().default(false),
    registrationOpensOn: date({ mode: "string" }),
    registrationClosesOn: date({ mode: "string" }),
    /** Late fees can be paid from this day (college time); null: no late fees in this session (decision 095). */
    lateFeesFrom: date({ mode: "string" }),
  },
  (table) => [
    uniqueIndex("academic_sessions_one_current")
      .on(table.isCurrent)
      .where(sql`${table.isCurrent}`),
    check(
      "academic_sessions_window_in_order",
      sql`${table.registrationOpensOn} is null or ${table.registrationClosesOn} is null or ${table.registrationOpensOn} <= ${table.registrationClosesOn}`,
    ),
  ],
);

/**
 * Students' levels are set for a session at most once: by the promotion run at its start, or, for
 * the session that was current when the portal began, by the data loaded then (`promotedBy` null).
 */
export const sessionPromotions = pgTable("session_promotions", {
  sessionId: integer()
    .primaryKey()
    .references(() => academicSessions.id),
  promotedBy: integer().references(() => staff.id),
  at: timestamp({ withTimezone: true }).notNull(),
  promoted: integer().notNull(),
  graduating: integer().notNull(),
});

/**
 * One promotion of a session's students (decision 158): who ran it, how many were held back, and
 * when it was undone. At most one run per session is in force (not undone); its per-student
 * changes let the undo restore exactly what the run changed and nothing a person changed since.
 */
export const promotionRuns = pgTable(
  "promotion_runs",
  {
    id: id(),
    sessionId: integer()
      .notNull()
      .references(() => academicSessions.id),
    promotedBy: integer()
      .notNull()
      .references(() => staff.id),
    at: timestamp({ withTimezone: true }).notNull(),
    held: integer().notNull(),
    undoneBy: integer().references(() => staff.id),
    undoneAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex("promotion_runs_one_in_force")
      .on(table.sessionId)
      .where(sql`${table.undoneAt} is null`),
  ],
);

/** What one promotion run did to one student: level and stage before and after. */
export const promotionChanges = pgTable(
  "promotion_changes",
  {
    runId: integer()
      .notNull()
      .references(() => promotionRuns.id),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    fromLevel: integer().notNull(),
    toLevel: integer().notNull(),
    fromStage: text().notNull(),
    toStage: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.studentId] })],
);

// ── Study and entry modes ────────────────────────────────────────────────────

/**
 * A mode list's columns. Its key matches names: letters and digits only, lower case, accents dropped, so
 * "Part-Time", "part time", "PART TIME" and "Parttime" are one mode (decision 154). The same rule
 * is written in TypeScript as modeKey (common/structure/modes.ts); keep the two alike.
 */
const modeListColumns = () => ({
  id: id(),
  name: text().notNull().unique(),
  key: text()
    .notNull()
    .unique()
    .generatedAlwaysAs(sql`regexp_replace(lower(normalize(name, NFKD)), '[^a-z0-9]', '', 'g')`),
});

/** The study modes the registry keeps ("Full Time", "Part-Time"): students and fees name one. */
export const studyModes = pgTable("study_modes", modeListColumns());

/** The entry modes the registry keeps ("UTME", "Direct Entry"): every student names one. */
export const entryModes = pgTable("entry_modes", modeListColumns());

// ── Students and their sign-in ───────────────────────────────────────────────

export const students = pgTable(
  "students",
  {
    id: id(),
    phone: text().notNull().unique(),
    /**
     * Unique whatever its case: see the index below (decision 126). Null for a student who has no
     * e-mail address: the registry activates them (decision 156).
     */
    email: text(),
    passwordHash: text().notNull(),
    passwordChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    title: text(),
    surname: text().notNull(),
    othername: text().notNull(),
    username: text(),
    photo: text(),
    matricNo: text().unique(),
    applicationNo: text().notNull().unique(),
    departmentId: integer()
      .notNull()
      .references(() => departments.id),
    programmeId: integer()
      .notNull()
      .references(() => programmes.id),
    entrySession: text().notNull(),
    /** A name on the registry's list, exactly as the list spells it (renames follow: decision 154). */
    entryMode: text()
      .notNull()
      .references(() => entryModes.name, { onUpdate: "cascade" }),
    studyMode: text()
      .notNull()
      .references(() => studyModes.name, { onUpdate: "cascade" }),
    level: integer().notNull(),
    stage: text().notNull().default("student"),
    maritalStatus: text(),
    religion: text(),
    dob: integer(),
    mob: integer(),
    yob: integer(),
    countryOrigin: text(),
    stateOrigin: text(),
    lgaOrigin: text(),
    /** Set by the registry when a record must no longer be edited by the student. */
    biodataLocked: boolean().notNull().default(false),
    /** Why the registry locked it, shown to the student beside the locked notice. */
    biodataLockReason: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    /**
     * The name folded for the registry's search: accents and punctuation dropped, lower case, in
     * both orders ("okafor adaeze / adaeze okafor"), so "Adebayo" finds "Adébáyọ̀" and "oneil" finds
     * "O'Neil" on PostgreSQL and PGlite alike, with no extension (decision 155).
     */
    searchName: text()
      .notNull()
      .generatedAlwaysAs(
        sql`regexp_replace(regexp_replace(lower(normalize(surname || ' ' || othername, NFD)), '[^a-z0-9 ]', '', 'g'), ' +', ' ', 'g') || ' / ' || regexp_replace(regexp_replace(lower(normalize(othername || ' ' || surname, NFD)), '[^a-z0-9 ]', '', 'g'), ' +', ' ', 'g')`,
      ),
  },
  (table) => [
    // One mailbox is one student, however its address is written: lookups by e-mail compare
    // lower(email), which this index answers.
    uniqueIndex("students_email_lower_unique").on(sql`lower(${table.email})`),
  ],
);

/**
 * PostgreSQL's bytea as a Buffer. node-postgres reads a Buffer, on the server and on PGlite's
 * thread alike (decision 134); a plain Uint8Array, as PGlite's own client would give, is wrapped
 * without a copy.
 */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * Passport photos, when the portal keeps them in the database (the default; decision 128): every
 * instance reads the same rows, and a database backup carries them. `key` is the name the server
 * chose (`students.photo`).
 */
export const storedFiles = pgTable(
  "stored_files",
  {
    key: text().primaryKey(),
    contentType: text().notNull(),
    bytes: bytea().notNull(),
    size: integer().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check("stored_files_size_matches", sql`${table.size} = octet_length(${table.bytes})`),
  ],
);

/** Server-side sign-in sessions; the browser holds only the random token, we keep its SHA-256. */
export const authSessions = pgTable(
  "auth_sessions",
  {
    tokenHash: text().primaryKey(),
    studentId: integer()
      .notNull()
      .references(() => students.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.studentId)],
);

/** Fixed-window counters for rate limits, shared by every API instance through the database. */
export const rateLimits = pgTable("rate_limits", {
  key: text().primaryKey(),
  windowStartedAt: timestamp({ withTimezone: true }).notNull(),
  hits: integer().notNull(),
});

// ── Deadline day: the line at the door (decision 193) ─────────────────────────

/** Numbers the line's tickets in order of arrival, across every proxy that hands them out. */
export const waitingLineTickets = pgSequence("waiting_line_tickets");

/**
 * The line's one row: tickets numbered up to `admittedThrough` may come in. Each proxy moves it
 * on by what its share of the portal can take, never past the last ticket handed out.
 */
export const waitingLine = pgTable(
  "waiting_line",
  {
    id: integer().primaryKey(),
    admittedThrough: bigint({ mode: "number" }).notNull(),
    /**
     * Set while the door is held: every newcomer waits and no one is let in (a journey's way to
     * see the line without a crowd, through the development hook; signed-in students go on).
     */
    heldSince: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("waiting_line_one_row", sql`${table.id} = 1`)],
);

/** Tickets already exchanged for an admission pass: a copied ticket lets one browser in, not two. */
export const waitingLineAdmissions = pgTable(
  "waiting_line_admissions",
  {
    ticket: bigint({ mode: "number" }).primaryKey(),
    admittedAt: createdAt(),
  },
  (table) => [index().on(table.admittedAt)],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id, { onDelete: "cascade" }),
    tokenHash: text().notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    /** "reset" (asked for by the student) or "activation" (sent by the registry). */
    purpose: text().notNull().default("reset"),
    /** Where the link was mailed; null when the registry showed it on screen (no e-mail on file). */
    sentTo: text(),
    /** When a newer activation link made this one stop working (its page says so). */
    replacedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.studentId)],
);

/**
 * A 6-digit code sent by SMS to the phone on a student's record, to set a new password without an
 * e-mail address (decision 200). Only a hash is kept, keyed by the password hash as reset links
 * are: a change of password kills every code sent before it.
 */
export const passwordResetCodes = pgTable(
  "password_reset_codes",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** Codes tried against it, right or wrong; the fifth is the last it takes. */
    tries: integer().notNull().default(0),
    /** Spent: used to set a password, or replaced by a newer code. */
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.studentId)],
);

/**
 * Every text message the portal queued, one row each: what kind, for whom, and what the provider
 * answered, for the queue's no-second-send rule and the bursar's count and cost. Not the text or
 * the number: a code in the text is as good as a password (decision 200).
 */
export const smsMessages = pgTable(
  "sms_messages",
  {
    id: id(),
    /** What makes a message one message (e.g. "reset-code:42"): queued twice, it is sent once. */
    idempotencyKey: text().notNull().unique(),
    /** Which template: "reset-code", and the kinds issue 35 adds after it. */
    kind: text().notNull(),
    studentId: integer().references(() => students.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    status: text().notNull().default("queued"),
    providerMessageId: text(),
    /** The cost as the provider reported it, e.g. "NGN 2.2000". */
    cost: text(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index().on(table.createdAt),
    check("sms_messages_status_known", sql`${table.status} in ('queued', 'sent', 'refused')`),
  ],
);

/**
 * What a student chose to get by SMS (decisions 200, 201); no row: the defaults (every kind of
 * news on, never stopped). Password codes and receipts go whatever this says.
 */
export const smsPreferences = pgTable("sms_preferences", {
  studentId: integer()
    .primaryKey()
    .references(() => students.id, { onDelete: "cascade" }),
  /** A semester approved, returned or reopened. */
  registrationNews: boolean().notNull().default(true),
  /** Their programme's semester results published. */
  resultsNews: boolean().notNull().default(true),
  /** The bursary's and the registry's deadline reminders. */
  deadlineReminders: boolean().notNull().default(true),
  /** When the student replied STOP (the provider's opt-out callback): news stops until they choose again. */
  stoppedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * A deadline the bursary (the session's school fee) or the registry (course registration) asked
 * students to be reminded of by SMS, 3 days and 1 day before (decision 201). The session is the
 * one current when it was scheduled: the reminder speaks of it even after the registry moves on.
 */
export const smsReminders = pgTable(
  "sms_reminders",
  {
    id: id(),
    kind: text().notNull(),
    session: text().notNull(),
    /** The last day, in Lagos: the texts go on the 3rd and the 1st day before it. */
    deadline: date({ mode: "string" }).notNull(),
    scheduledBy: integer()
      .notNull()
      .references(() => staff.id),
    createdAt: createdAt(),
    cancelledAt: timestamp({ withTimezone: true }),
    cancelledBy: integer().references(() => staff.id),
    /**
     * The last Lagos day the daily cap held this reminder back: written once a day, so the log
     * says it once and the staff page can show it.
     */
    cappedOn: date({ mode: "string" }),
  },
  (table) => [
    index().on(table.deadline),
    // One live reminder per kind and deadline: two officers scheduling it at once get one.
    uniqueIndex("sms_reminders_one_live_per_deadline")
      .on(table.kind, table.deadline)
      .where(sql`${table.cancelledAt} is null`),
    check("sms_reminders_kind_known", sql`${table.kind} in ('school_fee', 'registration')`),
  ],
);

/**
 * A student's way into the USSD menu (decision 202): the PIN they chose on the portal, hashed like
 * a password; the wrong PINs in a row, and the hour a third one locks the menu for; the menu's
 * language.
 */
export const ussdAccounts = pgTable(
  "ussd_accounts",
  {
    studentId: integer()
      .primaryKey()
      .references(() => students.id, { onDelete: "cascade" }),
    pinHash: text().notNull(),
    pinSetAt: timestamp({ withTimezone: true }).notNull(),
    wrongPins: integer().notNull().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    language: text().notNull().default("en"),
  },
  () => [check("ussd_accounts_language_known", sql`language in ('en', 'ha', 'yo', 'ig')`)],
);

/**
 * A USSD session the network opened, once its caller has given the right PIN: later screens of the
 * same session are answered without asking (and hashing) again. Purged after a day.
 */
export const ussdSessions = pgTable(
  "ussd_sessions",
  {
    sessionId: text().primaryKey(),
    studentId: integer()
      .notNull()
      .references(() => students.id, { onDelete: "cascade" }),
    /** The number the network passed: a session is only ever good for the phone that opened it. */
    phone: text().notNull(),
    pinGivenAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index().on(table.pinGivenAt)],
);

/**
 * A change of phone number or e-mail the student asked for, waiting for them to open the link
 * mailed to the address that will receive mail afterwards (see decision 056).
 */
export const contactChangeRequests = pgTable(
  "contact_change_requests",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id, { onDelete: "cascade" }),
    newPhone: text(),
    newEmail: text(),
    tokenHash: text().notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index().on(table.studentId),
    check(
      "contact_change_requests_changes_something",
      sql`${table.newPhone} is not null or ${table.newEmail} is not null`,
    ),
  ],
);

/** Audit trail of changes to the sign-in name and recovery address, one row per field. */
export const accountChanges = pgTable(
  "account_changes",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id, { onDelete: "cascade" }),
    field: text().notNull(),
    oldValue: text().notNull(),
    newValue: text().notNull(),
    changedAt: timestamp({ withTimezone: true }).notNull(),
    clientAddress: text().notNull(),
  },
  (table) => [
    index().on(table.studentId, table.changedAt),
    check("account_changes_field_known", sql`${table.field} in ('phone', 'email')`),
  ],
);

// ── Content ──────────────────────────────────────────────────────────────────

/**
 * Newsfeed items. `showFrom`/`showUntil` are the college's days (both included); null on a side
 * means no bound, so an announcement with neither is live until deleted (docs/decisions/106).
 */
export const announcements = pgTable(
  "announcements",
  {
    id: id(),
    body: text().notNull(),
    showFrom: date(),
    showUntil: date(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "announcements_shown_in_order",
      sql`${table.showUntil} is null or ${table.showFrom} is null or ${table.showFrom} <= ${table.showUntil}`,
    ),
  ],
);

export const libraryItems = pgTable(
  "library_items",
  {
    id: id(),
    description: text().notNull(),
    url: text().notNull(),
    /** Hidden items stay for the record but are not listed to students. */
    hidden: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("library_items_url_is_http", sql`${table.url} ~ '^https?://'`)],
);

export const COMPLAINT_STATUSES = ["open", "answered", "closed"] as const;

// Six characters from an alphabet without look-alikes (0/O, 1/I/L, U): easy to read over the
// phone, and random, so a ticket says nothing about how many complaints there are (decision 105).
const TICKET_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ";
const ticketCharacter = `substr('${TICKET_ALPHABET}', 1 + floor(random() * ${TICKET_ALPHABET.length})::int, 1)`;
const newTicket = sql.raw(`('CMP-' || ${Array(6).fill(ticketCharacter).join(" || ")})`);

export const complaints = pgTable(
  "complaints",
  {
    id: id(),
    /** What the student and the help desk call the complaint, e.g. CMP-7K3QX9. */
    ticket: text().notNull().unique().default(newTicket),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    subject: text().notNull(),
    message: text().notNull(),
    name: text().notNull(),
    email: text().notNull(),
    status: text({ enum: COMPLAINT_STATUSES }).notNull().default("open"),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("complaints_status_known", sql`${table.status} in ('open', 'answered', 'closed')`),
    index().on(table.status, table.createdAt),
    index().on(table.studentId, table.createdAt),
  ],
);

/**
 * The thread under a complaint: the help desk's answers (`staffId` set) and the student's own
 * replies (`fromStudent`, no staff member). Both read it in order under the complaint.
 */
export const complaintReplies = pgTable(
  "complaint_replies",
  {
    id: id(),
    complaintId: integer()
      .notNull()
      .references(() => complaints.id),
    staffId: integer().references(() => staff.id),
    fromStudent: boolean().notNull().default(false),
    body: text().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.complaintId, table.createdAt),
    check(
      "complaint_replies_one_author",
      sql`(${table.fromStudent} and ${table.staffId} is null) or (not ${table.fromStudent} and ${table.staffId} is not null)`,
    ),
  ],
);

// ── School fees ──────────────────────────────────────────────────────────────

/**
 * What each payment option costs, in kobo, per session and level, for one programme and study
 * mode or for all of them (null). The most specific fee in force wins (decision 095). A fee paid
 * against never changes: a new fee with the same key replaces it (`replacedAt` set on the old one).
 *
 * Fees of another `kind` than school fees (a transcript) are one price for the whole college:
 * level 0, every programme and mode, `session` only saying when it was set (decision 182).
 */
export const feeSchedule = pgTable(
  "fee_schedule",
  {
    id: id(),
    kind: text().$type<FeeKind>().notNull().default("school_fee"),
    paymentOption: text().notNull(),
    level: integer().notNull(),
    session: text().notNull(),
    /** null: every programme. */
    programmeId: integer().references(() => programmes.id),
    /** null: every study mode; otherwise a name on the registry's list, as the student's is. */
    studyMode: text().references(() => studyModes.name, { onUpdate: "cascade" }),
    amountKobo: integer().notNull(),
    replacedAt: timestamp({ withTimezone: true }),
    /**
     * The gateways the bursar lets students pay this fee through (federal colleges take school
     * fees through Remita only); empty: every gateway the portal offers (PAYMENT_GATEWAYS).
     */
    allowedGateways: text()
      .array()
      .$type<GatewayName[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (table) => [
    // One fee in force per key; "all programmes" (null) and a study mode in any letter case count once.
    uniqueIndex("fee_schedule_one_in_force")
      .on(
        table.session,
        sql`coalesce(${table.programmeId}, 0)`,
        table.level,
        sql`lower(coalesce(${table.studyMode}, ''))`,
        table.paymentOption,
      )
      .where(sql`${table.replacedAt} is null and ${table.kind} = 'school_fee'`),
    // One price in force for each other kind of fee.
    uniqueIndex("fee_schedule_one_in_force_per_kind")
      .on(table.kind)
      .where(sql`${table.replacedAt} is null and ${table.kind} <> 'school_fee'`),
    check("fee_schedule_amount_positive", sql`${table.amountKobo} > 0`),
    check("fee_schedule_kind_known", sql`${table.kind} in ('school_fee', 'transcript')`),
    check(
      "fee_schedule_gateways_known",
      sql`${table.allowedGateways} <@ array['paystack', 'remita']::text[]`,
    ),
    check(
      "fee_schedule_other_kinds_college_wide",
      sql`${table.kind} = 'school_fee' or (${table.level} = 0 and ${table.programmeId} is null and ${table.studyMode} is null)`,
    ),
  ],
);

/**
 * How Remita splits a fee's payment between accounts (decision 190): each row one beneficiary of
 * the RRRs generated for that fee (a line item), in the bursar's order. The amounts add up to the
 * fee and exactly one account bears Remita's charge; both are checked when the split is saved,
 * and a fee's amount cannot change while it has a split. A fee with no rows has no split.
 */
export const feeSplitItems = pgTable(
  "fee_split_items",
  {
    id: id(),
    feeId: integer()
      .notNull()
      .references(() => feeSchedule.id),
    position: integer().notNull(),
    beneficiaryName: text().notNull(),
    /** The beneficiary's 10-digit account number (NUBAN). */
    beneficiaryAccount: text().notNull(),
    /** The bank's 3-digit code, as Remita profiles the beneficiary. */
    bankCode: text().notNull(),
    amountKobo: integer().notNull(),
    /** Remita deducts its charge from this account's share (its `deductFeeFrom`). */
    bearsCharge: boolean().notNull().default(false),
  },
  (table) => [
    uniqueIndex("fee_split_items_position").on(table.feeId, table.position),
    uniqueIndex("fee_split_items_one_charge_bearer")
      .on(table.feeId)
      .where(sql`${table.bearsCharge}`),
    uniqueIndex("fee_split_items_account_once").on(
      table.feeId,
      table.bankCode,
      table.beneficiaryAccount,
    ),
    check("fee_split_items_amount_positive", sql`${table.amountKobo} > 0`),
    check("fee_split_items_account_digits", sql`${table.beneficiaryAccount} ~ '^[0-9]{10}$'`),
    check("fee_split_items_bank_code_digits", sql`${table.bankCode} ~ '^[0-9]{3}$'`),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: id(),
    reference: text().notNull().unique(),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    /**
     * What the money is for: school fees (the only kind that counts towards a session's fees, the
     * results fee gate and the one-success-per-option rule) or a transcript (decision 182).
     */
    kind: text().$type<FeeKind>().notNull().default("school_fee"),
    /** The transcript request a transcript payment pays for. */
    transcriptRequestId: integer().references(() => transcriptRequests.id),
    paymentOption: text().notNull(),
    level: integer().notNull(),
    session: text().notNull(),
    /** The fee this payment was started against; null only for payments older than fee ids. */
    feeId: integer().references(() => feeSchedule.id),
    amountKobo: integer().notNull(),
    currency: text().notNull().default("NGN"),
    /**
     * pending until Paystack confirms: success, failed or abandoned; duplicate or mismatch when
     * paid but not credited (decision 010); refunded once the refund is processed and reversed
     * when Paystack takes back a credited charge (decision 102). Only success counts as credit.
     */
    status: text().notNull().default("pending"),
    /** The gateway the payment was started with, which alone can say whether it was paid. */
    gateway: text().$type<GatewayName>().notNull().default("paystack"),
    authorizationUrl: text(),
    /** A bank transfer's account or a USSD code to dial (PayInstructions); null for a card. */
    payInstructions: jsonb().$type<PayInstructions>(),
    generatedAt: createdAt(),
    paidAt: timestamp({ withTimezone: true }),
    channel: text(),
    gatewayResponse: text(),
    lastCheckedAt: timestamp({ withTimezone: true }),
    /** The gateway's own reference for this payment, when it gives one (Remita's RRR). */
    gatewayReference: text(),
    /** What the gateway says was paid, once it says so: a mismatch differs from amountKobo. */
    paidAmountKobo: integer(),
    paidCurrency: text(),
  },
  (table) => [
    index().on(table.studentId),
    index().on(table.status, table.generatedAt),
    index().on(table.feeId),
    // A student can hold only one credited school-fee payment per option, level and session.
    uniqueIndex("payments_one_success_per_option")
      .on(table.studentId, table.paymentOption, table.level, table.session)
      .where(sql`${table.status} = 'success' and ${table.kind} = 'school_fee'`),
    // A notification names an RRR: it finds its payment by it, and no two payments share one.
    uniqueIndex("payments_gateway_reference")
      .on(table.gateway, table.gatewayReference)
      .where(sql`${table.gatewayReference} is not null`),
    // A transcript request is paid once; a second payment for it is a duplicate to refund.
    uniqueIndex("payments_one_success_per_transcript")
      .on(table.transcriptRequestId)
      .where(sql`${table.status} = 'success' and ${table.transcriptRequestId} is not null`),
    check(
      "payments_transcript_has_its_request",
      sql`(${table.kind} = 'transcript') = (${table.transcriptRequestId} is not null)`,
    ),
  ],
);

/**
 * A student's request for a transcript, to themselves or to an institution's address. Paid by a
 * `transcript` payment that names it; released by the exams office, which writes its `reference`
 * and the transcript as it stood (`snapshot`): names, programme and results never change after.
 */
export const transcriptRequests = pgTable(
  "transcript_requests",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    /** "self" or "institution". */
    recipient: text().notNull(),
    institutionName: text(),
    recipientEmail: text().notNull(),
    requestedAt: timestamp({ withTimezone: true }).notNull(),
    releasedAt: timestamp({ withTimezone: true }),
    releasedBy: integer().references(() => staff.id),
    /** What an institution types to check it, written on release. */
    reference: text().unique(),
    snapshot: jsonb().$type<TranscriptSnapshot>(),
    /** The student withdrew it before paying (decision 186): never released after. */
    cancelledAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index().on(table.studentId),
    check(
      "transcript_requests_released_whole",
      sql`(${table.releasedAt} is null) = (${table.reference} is null) and (${table.reference} is null) = (${table.snapshot} is null)`,
    ),
    check(
      "transcript_requests_cancelled_or_released",
      sql`${table.cancelledAt} is null or ${table.releasedAt} is null`,
    ),
  ],
);

/**
 * What happened to a payment, in order: initialised, each verify answer, each webhook, credited,
 * duplicate, mismatch, refund requested/processed/failed, reversed (decision 100). Written in the
 * same transaction as the change it describes; never updated.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: id(),
    paymentId: integer()
      .notNull()
      .references(() => payments.id),
    at: timestamp({ withTimezone: true }).notNull(),
    kind: text().notNull(),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index().on(table.paymentId, table.at)],
);

/** A refund the bursary asked for (decisions 102, 151). */
export const refunds = pgTable(
  "refunds",
  {
    id: id(),
    paymentId: integer()
      .notNull()
      .references(() => payments.id),
    amountKobo: integer().notNull(),
    currency: text().notNull(),
    /**
     * awaiting_approval (above REFUND_SECOND_APPROVAL_KOBO, Paystack not yet asked) until a second
     * approver approves (pending) or declines it (declined); pending until Paystack's
     * refund.processed or refund.failed webhook, or for an outside refund until the bursary marks
     * it paid (processed) or not paid (failed).
     */
    status: text().notNull().default("pending"),
    reason: text().notNull(),
    /**
     * success, duplicate or mismatch when it was asked: where the payment returns if Paystack's
     * refund fails, and what an approval checks the payment still is.
     */
    paymentStatusBefore: text().notNull(),
    paystackRefundId: integer(),
    requestedBy: integer()
      .notNull()
      .references(() => staff.id),
    requestedAt: timestamp({ withTimezone: true }).notNull(),
    /** The second approver of a refund that waited for one; never the one who asked. */
    approvedBy: integer().references(() => staff.id),
    approvedAt: timestamp({ withTimezone: true }),
    declinedBy: integer().references(() => staff.id),
    declinedAt: timestamp({ withTimezone: true }),
    declineReason: text(),
    settledAt: timestamp({ withTimezone: true }),
    /**
     * Paid by the bursary by bank transfer, outside the portal, because the payment's gateway has
     * no refund API (Remita; decision 190): pending until someone marks it paid (processed, with
     * the bank's transfer reference) or not paid (failed). The gateway is never asked.
     */
    outside: boolean().notNull().default(false),
    /** The student's bank account an outside refund is paid into, as the bursary entered it. */
    payeeAccountName: text(),
    payeeAccountNumber: text(),
    payeeBank: text(),
    /** The bank's reference for the transfer that paid an outside refund. */
    transferReference: text(),
    /** Who marked an outside refund paid, or not paid. */
    settledBy: integer().references(() => staff.id),
  },
  (table) => [
    // One refund per payment; a failed or declined one may be asked again.
    uniqueIndex("refunds_one_live_per_payment")
      .on(table.paymentId)
      .where(sql`${table.status} not in ('failed', 'declined')`),
    index("refunds_payment_id_index").on(table.paymentId),
    check("refunds_amount_positive", sql`${table.amountKobo} > 0`),
    check(
      "refunds_approver_is_not_asker",
      sql`${table.approvedBy} is null or ${table.approvedBy} <> ${table.requestedBy}`,
    ),
    check(
      "refunds_outside_has_payee",
      sql`${table.outside} = (${table.payeeAccountNumber} is not null and ${table.payeeAccountName} is not null and ${table.payeeBank} is not null)`,
    ),
    check(
      "refunds_payee_account_digits",
      sql`${table.payeeAccountNumber} is null or ${table.payeeAccountNumber} ~ '^[0-9]{10}$'`,
    ),
    check(
      "refunds_transfer_only_outside",
      sql`${table.transferReference} is null or ${table.outside}`,
    ),
    // One bank transfer pays one refund: the same reference twice is a mistake in typing it,
    // whatever the capitals (a bank's "TRF-1" and a bursar's "trf-1" are one transfer).
    uniqueIndex("refunds_transfer_reference")
      .on(sql`upper(${table.transferReference})`)
      .where(sql`${table.transferReference} is not null`),
  ],
);

/**
 * A student whose credited payment was taken back at Paystack (reversed or refunded outside the
 * portal): their fee status changed under them, so the bursary follows it up (decision 102).
 */
export const feeStatusFlags = pgTable(
  "fee_status_flags",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    paymentId: integer()
      .notNull()
      .references(() => payments.id)
      .unique(),
    reason: text().notNull(),
    raisedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index().on(table.studentId)],
);

export const hostelRooms = pgTable("hostel_rooms", {
  id: id(),
  name: text().notNull().unique(),
  numOfOccupants: integer().notNull(),
});

export const hostelInvoices = pgTable(
  "hostel_invoices",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    roomTypeId: integer()
      .notNull()
      .references(() => hostelRooms.id),
    paymentRef: text().notNull().unique(),
    amountKobo: integer().notNull(),
    session: text().notNull(),
    status: text().notNull().default("success"),
    generatedAt: createdAt(),
  },
  (table) => [index().on(table.studentId)],
);

// ── Course registration ──────────────────────────────────────────────────────

export const courses = pgTable("courses", {
  id: id(),
  code: text().notNull().unique(),
  title: text().notNull(),
  unit: integer().notNull(),
  semester: integer().notNull(),
});

/** Which courses a programme offers at a level and semester. */
export const courseMappings = pgTable(
  "course_mappings",
  {
    id: id(),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    programmeId: integer()
      .notNull()
      .references(() => programmes.id),
    level: integer().notNull(),
    semester: integer().notNull(),
    /** A compulsory course failed is carried over into the next registration (decision 174). */
    compulsory: boolean().notNull().default(true),
  },
  (table) => [
    uniqueIndex().on(table.courseId, table.programmeId, table.level),
    // What the picker asks on every visit: a programme's courses at a level (and semester).
    index().on(table.programmeId, table.level, table.semester),
  ],
);

export const courseRegistrations = pgTable(
  "course_registrations",
  {
    id: id(),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    session: text().notNull(),
    level: integer().notNull(),
    semester: integer().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex().on(table.studentId, table.courseId, table.session),
    index().on(table.studentId, table.session),
    // A course's roster, read each time its score sheet is opened, saved or submitted: without
    // it every read scans the semester's registrations (docs/measurements, results bench).
    index().on(table.courseId, table.session, table.semester),
  ],
);

/**
 * A Course Advisor's approval of one semester's registration; it freezes that semester. An
 * adviser's approval names them by `staffId` (their current name is shown); approvals from before
 * staff accounts keep only the name that was recorded, in `approvedBy` (docs/decisions/085).
 */
export const registrationApprovals = pgTable(
  "registration_approvals",
  {
    studentId: integer()
      .notNull()
      .references(() => students.id),
    session: text().notNull(),
    semester: integer().notNull(),
    staffId: integer().references(() => staff.id),
    approvedBy: text(),
    approvedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.studentId, table.session, table.semester] }),
    check(
      "registration_approvals_names_one_approver",
      sql`num_nonnulls(${table.staffId}, ${table.approvedBy}) = 1`,
    ),
  ],
);

/**
 * A semester an adviser sent back to the student with a note. It lasts until the student changes
 * that semester (then it is pending again) or an adviser approves it.
 */
export const registrationReturns = pgTable(
  "registration_returns",
  {
    studentId: integer()
      .notNull()
      .references(() => students.id),
    session: text().notNull(),
    semester: integer().notNull(),
    staffId: integer()
      .notNull()
      .references(() => staff.id),
    note: text().notNull(),
    returnedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.studentId, table.session, table.semester] })],
);

/**
 * A semester the student changed after it was returned: pending again, and shown to the adviser
 * after first submissions (decision 159). Cleared when the semester is approved or returned again.
 */
export const registrationResubmissions = pgTable(
  "registration_resubmissions",
  {
    studentId: integer()
      .notNull()
      .references(() => students.id),
    session: text().notNull(),
    semester: integer().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.studentId, table.session, table.semester] })],
);

// ── Staff ────────────────────────────────────────────────────────────────────

/** What a staff member may do; one account can hold several (docs/decisions/080). */
export const STAFF_ROLES = [
  "registry",
  "adviser",
  "bursar",
  "support",
  "admin",
  "lecturer",
  "hod",
  "exams",
] as const;

/**
 * College staff, kept apart from students: another sign-in name (e-mail), another cookie, other
 * sessions. A new account has no password until its owner sets one through the invitation link.
 */
export const staff = pgTable(
  "staff",
  {
    id: id(),
    name: text().notNull(),
    /** Stored lower-cased: the sign-in name. */
    email: text().notNull().unique(),
    passwordHash: text(),
    passwordChangedAt: timestamp({ withTimezone: true }),
    roles: text().array().notNull(),
    active: boolean().notNull().default(true),
    /** Base32 TOTP secret; set once enrolment is confirmed with a first code. */
    totpSecret: text(),
    /** A secret shown for enrolment but not yet confirmed. */
    totpPendingSecret: text(),
    /** SHA-256 hashes of unused recovery codes. */
    recoveryCodeHashes: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The last TOTP time step accepted, so one code cannot be used twice. */
    totpLastStep: integer(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("staff_email_is_lower_case", sql`${table.email} = lower(${table.email})`)],
);

/** The departments and levels a course adviser advises: one row per department and level. */
export const adviserScopes = pgTable(
  "adviser_scopes",
  {
    staffId: integer()
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    departmentId: integer()
      .notNull()
      .references(() => departments.id),
    level: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.staffId, table.departmentId, table.level] })],
);

/**
 * Staff sign-in sessions. `secondFactorAt` is null until the TOTP code is given (or when the
 * account has none); until then the session opens only the code and enrolment steps.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    tokenHash: text().primaryKey(),
    staffId: integer()
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    secondFactorAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.staffId)],
);

/** Single-use links that let a staff member set their password (invitation or reset). */
export const staffPasswordTokens = pgTable("staff_password_tokens", {
  id: id(),
  staffId: integer()
    .notNull()
    .references(() => staff.id, { onDelete: "cascade" }),
  tokenHash: text().notNull().unique(),
  createdAt: createdAt(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
});

/**
 * Every change staff make: who, when, what, which record, the values before and after. The
 * product only ever inserts here; triggers refuse updates, deletes and TRUNCATE (migration 0002 and
 * the audit_log_readable one, decision 162).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    /** Null for a change Paystack caused (a reversal), recorded without a person (decision 102). */
    staffId: integer().references(() => staff.id),
    at: timestamp({ withTimezone: true }).notNull(),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    before: jsonb(),
    after: jsonb(),
    /** The student who made the change themselves (setting a password from a link); staffId is then null. */
    byStudentId: integer(),
    /** The import's summary row this row belongs to: one row per file, linking to a row per record. */
    partOf: integer(),
  },
  (table) => [
    index().on(table.at),
    index().on(table.entity, table.entityId),
    index().on(table.staffId),
    index().on(table.partOf),
  ],
);

// ── Results (issue 32; decisions 174, 175) ─────────────────────────────────────────────────

/**
 * The college's grading scheme from a session on: a semester is graded by the latest scheme whose
 * `fromSession` is not after its own, so a past result keeps the scheme it was graded by.
 */
export const gradingSchemes = pgTable("grading_schemes", {
  id: id(),
  fromSession: text().notNull().unique(),
  scheme: jsonb().$type<GradingScheme>().notNull(),
  staffId: integer().references(() => staff.id),
  createdAt: createdAt(),
});

/** The head of each department: who approves its courses' results. */
export const departmentHeads = pgTable("department_heads", {
  departmentId: integer()
    .primaryKey()
    .references(() => departments.id),
  staffId: integer()
    .notNull()
    .references(() => staff.id),
});

/**
 * A course taught in one session and semester: what lecturers are assigned to and a result is
 * entered for. Its `status` moves open → submitted → approved → published, and back from
 * submitted to open when the head of department returns it with `returnNote`.
 */
export const courseOfferings = pgTable(
  "course_offerings",
  {
    id: id(),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    session: text().notNull(),
    semester: integer().notNull(),
    /** Whose head of department approves the result. */
    departmentId: integer()
      .notNull()
      .references(() => departments.id),
    status: text().notNull().default("open"),
    submittedAt: timestamp({ withTimezone: true }),
    submittedBy: integer().references(() => staff.id),
    approvedAt: timestamp({ withTimezone: true }),
    approvedBy: integer().references(() => staff.id),
    /** The head of department's note when they last returned it to its lecturers. */
    returnNote: text(),
  },
  (table) => [
    uniqueIndex().on(table.courseId, table.session, table.semester),
    index().on(table.departmentId, table.session, table.semester),
  ],
);

/** The lecturers assigned to an offering (one or several). */
export const offeringLecturers = pgTable(
  "offering_lecturers",
  {
    offeringId: integer()
      .notNull()
      .references(() => courseOfferings.id, { onDelete: "cascade" }),
    staffId: integer()
      .notNull()
      .references(() => staff.id),
  },
  (table) => [
    primaryKey({ columns: [table.offeringId, table.staffId] }),
    index().on(table.staffId),
  ],
);

/**
 * One student's scores in one offering: CA and exam in whole marks, or a special mark (ABS, I, S)
 * instead of the exam. Graded when read, by the semester's scheme; the range of each mark is the
 * scheme's, checked by the API when it is saved.
 */
export const courseScores = pgTable(
  "course_scores",
  {
    offeringId: integer()
      .notNull()
      .references(() => courseOfferings.id),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    ca: integer(),
    exam: integer(),
    special: text().$type<SpecialMark>(),
    enteredBy: integer()
      .notNull()
      .references(() => staff.id),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.offeringId, table.studentId] }),
    index().on(table.studentId),
    // Saved as the lecturer goes: CA first, the exam or a special mark later, never both.
    check("course_scores_exam_or_special", sql`${table.exam} is null or ${table.special} is null`),
  ],
);

/**
 * A semester's results published for a programme, on the academic board's approval: from then on
 * its students see them, and a score changes only by an amendment.
 */
export const resultPublications = pgTable(
  "result_publications",
  {
    id: id(),
    programmeId: integer()
      .notNull()
      .references(() => programmes.id),
    session: text().notNull(),
    semester: integer().notNull(),
    boardMeetingOn: date({ mode: "string" }).notNull(),
    minuteReference: text().notNull(),
    publishedBy: integer()
      .notNull()
      .references(() => staff.id),
    publishedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex().on(table.programmeId, table.session, table.semester)],
);

/**
 * A change to a published score: the lecturer proposes old → new with a reason, the head of
 * department and then the exams office approve, and only then is the score changed. Kept forever,
 * with who approved when, so the record shows every change (decision 177).
 */
export const scoreAmendments = pgTable(
  "score_amendments",
  {
    id: id(),
    offeringId: integer()
      .notNull()
      .references(() => courseOfferings.id),
    studentId: integer()
      .notNull()
      .references(() => students.id),
    oldCa: integer(),
    oldExam: integer(),
    oldSpecial: text().$type<SpecialMark>(),
    newCa: integer(),
    newExam: integer(),
    newSpecial: text().$type<SpecialMark>(),
    reason: text().notNull(),
    /** proposed → endorsed (by the head) → applied (by the exams office), or declined by either. */
    status: text().notNull().default("proposed"),
    proposedBy: integer()
      .notNull()
      .references(() => staff.id),
    proposedAt: timestamp({ withTimezone: true }).notNull(),
    endorsedBy: integer().references(() => staff.id),
    endorsedAt: timestamp({ withTimezone: true }),
    appliedBy: integer().references(() => staff.id),
    appliedAt: timestamp({ withTimezone: true }),
    declinedBy: integer().references(() => staff.id),
    declinedAt: timestamp({ withTimezone: true }),
    declineNote: text(),
  },
  (table) => [
    index().on(table.studentId),
    // One amendment under way per student and course; applied and declined ones stay beside it.
    uniqueIndex("score_amendments_one_open")
      .on(table.offeringId, table.studentId)
      .where(sql`${table.status} in ('proposed', 'endorsed')`),
  ],
);
