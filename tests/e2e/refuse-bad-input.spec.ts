import { expect, test } from "@playwright/test";
import {
  authSessions,
  complaints,
  courseRegistrations,
  hostelInvoices,
  passwordResetTokens,
  storedFiles,
  payments,
  registrationApprovals,
  students,
} from "../../server/db/schema.ts";
import { BAD_BODIES } from "./bad-input/bad-bodies.ts";
import { sendRaw, type RawOutcome, type RawRequest } from "./bad-input/raw-request.ts";
import { startPortalStack } from "./bad-input/stack.ts";

// Not a browser journey: raw requests to the proxy over a socket, as a careless or hostile
// client sends them. It runs here because it needs the built page server.
test.describe.configure({ timeout: 120_000 });

/** Every route that reads a body: the API's (through /api) and the page server's form posts. */
function routesFor(studentId: number) {
  return [
    ["POST", "/api/student/uniben/login"],
    ["POST", "/api/courses/register"],
    ["POST", "/api/courses/reset/"],
    ["POST", "/api/complaint/"],
    ["POST", "/api/student/generate-payment"],
    ["POST", "/api/student/school-fee"],
    ["POST", "/api/paystack/webhook"],
    ["POST", "/api/password/request-reset-email/"],
    ["PATCH", "/api/password/password-reset-complete"],
    ["PATCH", `/api/student/biodata-update/${studentId}`],
    ["POST", "/api/student/me"],
    ["PUT", "/api/library/"],
    ["POST", "/login"],
    ["POST", "/complaint"],
    ["POST", "/reset-password"],
    ["POST", "/password/reset/MQ/c8q0ul-0123456789abcdef0123456789abcdef"],
    ["POST", "/history/payments"],
    ["POST", "/"],
    ["POST", "/payment"],
    ["POST", "/biodata"],
    ["POST", "/course-reg"],
    ["POST", "/paystack/verify?reference=CCE-20240101-AAAAAAAAAAAA"],
    ["POST", "/verify/not-a-token"],
  ] as const;
}
// Signing out is what these do whatever the body says: sent without a session only.
const SIGN_OUT_ROUTES = [
  ["POST", "/api/student/logout"],
  ["POST", "/logout"],
] as const;

/** Runs `requests` a few at a time; the answers come back in order. */
async function sendAll(origin: string, requests: RawRequest[], parallel = 6) {
  const outcomes: RawOutcome[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      outcomes[index] = await sendRaw(origin, requests[index]!);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return outcomes;
}

test("oversized and malformed bodies to every route are refused without an error and change nothing", async () => {
  const stack = await startPortalStack();
  try {
    const { api, origin } = stack;
    const student = await api.createStudent({ phone: "08039990000", password: "bad-input-pass" });
    const login = await sendRaw(origin, {
      method: "POST",
      path: "/login",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: Buffer.from("username=08039990000&password=bad-input-pass"),
    });
    expect(login).toEqual({ status: 303 });
    const cookie = `portal_session=${await api.signIn("08039990000", "bad-input-pass")}`;

    async function snapshot() {
      const tables = {
        students,
        complaints,
        payments,
        hostelInvoices,
        courseRegistrations,
        registrationApprovals,
        passwordResetTokens,
        // A refused upload must not leave a photo behind.
        storedFiles,
      };
      const rows: Record<string, string[]> = {};
      for (const [name, table] of Object.entries(tables)) {
        rows[name] = (await api.db.select().from(table)).map((row) => JSON.stringify(row)).sort();
      }
      return { rows, sessions: (await api.db.select().from(authSessions)).length };
    }
    const before = await snapshot();

    const requests: (RawRequest & { label: string })[] = [];
    for (const [method, path] of routesFor(student.id)) {
      for (const bad of BAD_BODIES) {
        const request = {
          method,
          path,
          headers: { ...bad.headers, origin },
          body: bad.body,
          chunked: bad.chunked,
        };
        requests.push({
          ...request,
          headers: { ...request.headers, cookie },
          label: `${method} ${path} with ${bad.name}, signed in`,
        });
        // Without a session the multi-megabyte bodies add nothing but time.
        if (bad.body.length < 1_000_000)
          requests.push({ ...request, label: `${method} ${path} with ${bad.name}` });
      }
    }
    for (const [method, path] of SIGN_OUT_ROUTES) {
      for (const bad of BAD_BODIES.filter((body) => body.body.length < 1_000_000)) {
        requests.push({
          method,
          path,
          headers: { ...bad.headers, origin },
          body: bad.body,
          chunked: bad.chunked,
          label: `${method} ${path} with ${bad.name}`,
        });
      }
    }

    const outcomes = await sendAll(origin, requests);
    const failures = outcomes.flatMap((outcome, index) =>
      "error" in outcome || outcome.status >= 500
        ? [`${requests[index]!.label}: ${"error" in outcome ? outcome.error : outcome.status}`]
        : [],
    );
    const serverErrors = outcomes.filter(
      (outcome) => "status" in outcome && outcome.status >= 500,
    ).length;
    const dropped = outcomes.filter((outcome) => "error" in outcome).length;
    console.log(
      `bad input: ${requests.length} requests, ${serverErrors} answered ≥ 500, ${dropped} dropped`,
    );
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  } finally {
    await stack.stop();
  }
});
