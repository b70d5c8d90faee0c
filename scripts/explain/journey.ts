import { sql } from "drizzle-orm";
import { MAX_UNITS } from "../../common/courses/registration-status.ts";
import { PROXY_SECRET_HEADER } from "../../common/http/proxy-secret.ts";
import { createApi } from "../../server/app.ts";
import type { Database, DatabaseHandle } from "../../server/db/client.ts";
import { startJobQueue } from "../../server/jobs/job-queue.ts";
import { createOutboxMailer } from "../../server/mail/mailer.ts";
import { createMemoryLogger } from "../../server/http/logger.ts";
import { createPaymentReceipts } from "../../server/payments/receipt.ts";
import { createPaystackClient } from "../../server/paystack/client.ts";
import { paystackGateway } from "../../server/paystack/gateway.ts";
import { createPaystackSandbox } from "../../server/paystack/sandbox.ts";
import { createRemitaGateway } from "../../server/remita/gateway.ts";
import { REMITA_DEMO } from "../../server/remita/settings.ts";
import { databasePhotoBackend } from "../../server/uploads/database-photos.ts";
import { createPhotoStorage } from "../../server/uploads/photo-storage.ts";
import { databaseLineStore } from "../../server/waiting-line/line-store.ts";
import { COLLEGE_SIZE_PASSWORD } from "../college/college-size.ts";
import { chooseWithinCap } from "../load/journey.ts";

type OfferedCourse = { course_id: number; unit: number | string; state?: string };

/** The college-size student the journey is played as. */
export type JourneyStudent = { id: number; phone: string; level: number; session: string };

const SANDBOX_KEY = "sk_test_explain_hot_queries_0123";
const PROXY_SECRET = "explain-hot-queries-proxy-secret-0123456789";
const PUBLIC_ORIGIN = "http://localhost:4321";

/**
 * A college-size student of the middle of the data who has not yet paid or registered this
 * session, at 300 level (so with the longest history): the student whose registration week the
 * journey plays. Read through `db`, which is not explained.
 */
export async function middleStudent(db: Database): Promise<JourneyStudent> {
  const { rows } = await db.execute<{
    id: number;
    phone: string;
    level: number;
    session: string;
  }>(sql`
    with current_session as (select name from academic_sessions where is_current),
    college as (select min(id) as first, max(id) as last from students where phone like '0918%')
    select s.id, s.phone, s.level, c.name as session
    from students s, current_session c, college
    where s.phone like '0918%' and s.level = 300
      and not exists (select 1 from payments p where p.student_id = s.id and p.session = c.name)
      and not exists (select 1 from course_registrations r where r.student_id = s.id and r.session = c.name)
    order by abs(s.id - (college.first + college.last) / 2), s.id
    limit 1`);
  const student = rows[0];
  if (!student)
    throw new Error(
      "No college-size student at 300 level is left to pay and register this session: build the database with --college-size.",
    );
  return { ...student, id: Number(student.id), level: Number(student.level) };
}

/**
 * Plays one student's registration week against the real API in this process, on `database`:
 * the pages' API calls in the order a browser and the page server make them (as
 * scripts/load/journey.ts plays them through the portal), with the school fee paid at the Paystack
 * sandbox, also in this process, whose webhook credits it. Then the line at the door's
 * statements, as a proxy runs them. `onStep` hears each step's name before its requests go.
 */
export async function playJourney(
  database: Pick<DatabaseHandle, "db" | "jobConnection">,
  sandboxDb: Database,
  student: JourneyStudent,
  options: { onStep: (step: string) => void; outboxDir: string },
) {
  const logger = createMemoryLogger();
  const jobs = await startJobQueue(database, {
    mailer: createOutboxMailer({ dir: options.outboxDir, from: "Portal <no-reply@college.test>" }),
    logger,
  });
  try {
    let api: ReturnType<typeof createApi> | undefined;
    const toApi: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      return api!.request(url.pathname.replace(/^\/api/, "") + url.search, request);
    };
    const sandbox = createPaystackSandbox({
      db: sandboxDb,
      secretKey: SANDBOX_KEY,
      publicUrl: "http://paystack-sandbox.local",
      webhookUrl: `${PUBLIC_ORIGIN}/api/paystack/webhook`,
      fetch: toApi,
    });
    const toSandbox: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      return sandbox.request(url.pathname + url.search, request);
    };
    const slipSigningKey = "explain-hot-queries-slip-key-0123456789abcdef";
    api = createApi({
      db: database.db,
      logger,
      now: () => new Date(),
      // No session cache: every request looks its session up, as each one does on a busy portal
      // whose processes each see a student's requests in turn.
      sessions: { idleMinutes: 120, absoluteHours: 12, cacheMs: 0 },
      photos: createPhotoStorage(databasePhotoBackend(database.db)),
      publicOrigin: PUBLIC_ORIGIN,
      gateways: {
        paystack: paystackGateway(
          createPaystackClient({
            baseUrl: "http://paystack-sandbox.local",
            secretKey: SANDBOX_KEY,
            fetch: toSandbox,
          }),
          SANDBOX_KEY,
        ),
        remita: createRemitaGateway({
          baseUrl: "http://remita.invalid",
          merchantId: REMITA_DEMO.merchantId,
          apiKey: REMITA_DEMO.apiKey,
          serviceTypes: { fallback: REMITA_DEMO.serviceTypeId, byKind: {} },
          publicOrigin: PUBLIC_ORIGIN,
          fetch: () => Promise.reject(new Error("This journey pays through Paystack only.")),
        }),
      },
      offeredGateways: ["paystack"],
      jobs,
      receipts: createPaymentReceipts({ jobs, publicOrigin: PUBLIC_ORIGIN, slipSigningKey }),
      supportEmail: "support@college.test",
      refundSecondApprovalKobo: 5_000_000,
      slipSigningKey,
      proxySecret: PROXY_SECRET,
    });

    let token = "";
    const call = async <T>(
      path: string,
      init: { method?: string; json?: unknown; status?: number } = {},
    ): Promise<T> => {
      const headers = new Headers({
        "x-forwarded-for": "198.51.100.34",
        [PROXY_SECRET_HEADER]: PROXY_SECRET,
      });
      if (token) headers.set("authorization", `Bearer ${token}`);
      if (init.json !== undefined) headers.set("content-type", "application/json");
      const response = await api!.request(path, {
        method: init.method ?? (init.json === undefined ? "GET" : "POST"),
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const text = await response.text();
      if (response.status !== (init.status ?? 200))
        throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    };
    const page = async (step: string, ...paths: string[]) => {
      options.onStep(step);
      // Every signed-in page asks who is signed in first (src/middleware.ts).
      await call("/student/me");
      for (const path of paths) await call(path);
    };
    const { id, level, session } = student;

    options.onStep("sign in");
    const signedIn = await call<{ data: { tokens: { access: string } } }>("/student/uniben/login", {
      json: { username: student.phone, password: COLLEGE_SIZE_PASSWORD },
    });
    token = signedIn.data.tokens.access;
    await page(
      "dashboard",
      "/setup/announcement/view",
      `/student/payment-info/${id}`,
      "/courses/student-view",
    );
    await page("profile", `/student/profile/${id}`);
    await page("payment page", `/student/payment-info/${id}`, "/setup/sessions/read");
    const choice = { payment_option: "full", payment_level: level, payment_session: session };
    options.onStep("quote");
    await call("/student/generate-payment", { json: { payment_name: "schoolfees", ...choice } });
    options.onStep("initialise payment");
    const started = await call<{ status: string; reference: string }>("/student/school-fee", {
      json: { student_id: id, ...choice },
    });
    options.onStep("pay at checkout (the webhook credits it)");
    const paid = await sandbox.request(`/__sandbox/transactions/${started.reference}/pay`, {
      method: "POST",
      headers: { authorization: `Bearer ${SANDBOX_KEY}` },
    });
    const delivery = (await paid.json()) as { data?: { webhook?: string } };
    if (delivery.data?.webhook !== "delivered")
      throw new Error(`The sandbox's webhook was not delivered: ${JSON.stringify(delivery)}`);
    await page("verify check", `/paystack/verify/${started.reference}`);
    await page("payment history", `/student/payment-info/${id}`, `/student/hostel-invoices/${id}`);
    await page("registration page", "/setup/sessions/read", `/student/payment-info/${id}`);
    const carried = await call<{ data: { carry_overs: OfferedCourse[] } }>("/courses/picker-view");
    options.onStep("mapped courses");
    const offered = await call<{ data: { data: OfferedCourse[] } }>(
      `/courses/mapped/read?mapped_level=${level}`,
    );
    // The courses failed before that this registration must include come first, as the page
    // ticks them; then this level's courses, each that still fits under the cap.
    const required = carried.data.carry_overs.filter((course) => course.state === "required");
    const requiredUnits = required.reduce((sum, course) => sum + Number(course.unit), 0);
    const chosen = [
      ...required,
      ...chooseWithinCap(
        offered.data.data.filter(
          (course) => !required.some((carry) => carry.course_id === course.course_id),
        ),
        MAX_UNITS - requiredUnits,
      ),
    ];
    if (chosen.length === 0) throw new Error(`No course is offered at ${level} level.`);
    options.onStep("register");
    await call("/courses/register", {
      json: {
        courses: chosen.map((course) => course.course_id),
        registration_level: level,
        session,
      },
      status: 201,
    });
    await page(
      "registration slip",
      `/courses/validated/first/${level}?${new URLSearchParams({ session })}`,
    );
    await page("results", "/student/results");
    options.onStep("sign out");
    await call("/student/logout", { method: "POST" });

    // The proxy's statements on a deadline day (server/waiting-line/line-store.ts).
    options.onStep("line at the door");
    const line = databaseLineStore(database.db);
    await line.read();
    const ticket = await line.join();
    await line.admit(1);
    await line.exchange(ticket);
  } finally {
    await jobs.stop();
  }
}
