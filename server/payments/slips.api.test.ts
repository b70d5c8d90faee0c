import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { createPaymentsKit, FULL_100_2024, type PaymentsKit } from "./payments.test-kit.ts";
import { hostelInvoices } from "../db/schema.ts";
import { seedHostelRooms } from "./seed.ts";
import { slipToken } from "./slip-token.ts";

let kit: PaymentsKit;
let me: Awaited<ReturnType<PaymentsKit["newStudent"]>>;
let paid: string;
let pending: string;
const HOSTEL_REF = "CCE-20250110-HOSTEL000001";

beforeAll(async () => {
  kit = await createPaymentsKit();
  me = await kit.newStudent({
    surname: "Okafor",
    othername: "Ngozi Ada",
    matricNo: "CCE/2024/BIO/0001",
  });
  paid = await kit.start(me, "part");
  await kit.payAtSandbox(paid);
  await kit.verify(paid, me.token);
  pending = await kit.start(me, "latefees", 100, "2023/2024");
  const [room] = await seedHostelRooms(kit.api.db);
  await kit.api.db.insert(hostelInvoices).values({
    studentId: me.student.id,
    roomTypeId: room!.id,
    paymentRef: HOSTEL_REF,
    amountKobo: 3_500_000,
    session: "2024/2025",
    generatedAt: new Date("2025-01-10T10:00:00Z"),
  });
});
afterAll(() => kit.api.close());

const get = (path: string, token?: string) => kit.api.request(path, { token });
const verifyPath = (url: string) => `/slips/verify/${url.split("/verify/")[1]}`;

describe("GET /student/payment-info/:id", () => {
  it("lists every payment with the spec's fields, newest first, and the session's fee status", async () => {
    const body = await (await get(`/student/payment-info/${me.student.id}`, me.token)).json();
    expect(body.data.school_fees_payment).toEqual({
      payment_complete: "part",
      session: "2024/2025",
      notices: [],
    });
    expect(
      body.data.school_fee_payment.map((row: { paystack_ref: string }) => row.paystack_ref),
    ).toEqual([pending, paid]);
    expect(Object.keys(body.data.school_fee_payment[0]).sort()).toEqual([
      "amount_paid",
      "gateway",
      "generated_date",
      "installment",
      "note",
      "payment_level",
      "payment_session",
      "payment_status",
      "paystack_ref",
      "rrr",
      "unused_attempt",
      "uploaded_date",
    ]);
  });
});

describe("school fee slip", () => {
  it("answers a credited payment with a signed link to the public check", async () => {
    const response = await get(`/student/invoice/school-fee/${paid}`, me.token);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.payment).toMatchObject({
      paystack_ref: paid,
      installment: "part",
      amount_paid: 72_000,
      payment_status: "success",
    });
    expect(data.channel).toBe("card");
    expect(data.passport).toBeNull();
    expect(data.verify_url).toBe(
      `http://localhost:4321/verify/${slipToken("school-fee", paid, kit.api.deps.slipSigningKey)}`,
    );
  });

  it.each([
    ["a payment that is not paid", () => pending],
    ["an unknown reference", () => "CCE-20250115-NOTHING00000"],
  ])("answers 404 for %s", async (_case, reference) => {
    const response = await get(`/student/invoice/school-fee/${reference()}`, me.token);
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(
      /^There is no paid payment with that reference/,
    );
  });

  it("answers 404 for another student's slip, and 401 without a session", async () => {
    const other = await kit.newStudent();
    expect((await get(`/student/invoice/school-fee/${paid}`, other.token)).status).toBe(404);
    expect((await get(`/student/invoice/hostel/${HOSTEL_REF}`, other.token)).status).toBe(404);
    expect((await get(`/student/invoice/school-fee/${paid}`)).status).toBe(401);
    expect((await get(`/student/hostel-invoices/${me.student.id}`, other.token)).status).toBe(403);
  });
});

describe("the passport photo on a slip", () => {
  it("travels inside the slip as a small JPEG data URI", async () => {
    const photo = await kit.api.deps.photos.save(
      await sharp({ create: { width: 600, height: 600, channels: 3, background: "#8899aa" } })
        .jpeg()
        .toBuffer(),
      "jpg",
    );
    const pictured = await kit.newStudent({ photo });
    const reference = await kit.start(pictured, "part");
    await kit.payAtSandbox(reference);
    await kit.verify(reference, pictured.token);
    const { data } = await (
      await get(`/student/invoice/school-fee/${reference}`, pictured.token)
    ).json();
    expect(data.passport).toMatch(/^data:image\/jpeg;base64,/);
    const bytes = Buffer.from(data.passport.split(",")[1], "base64");
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 220, height: 264 });
    expect(bytes.length).toBeLessThan(20_000);
  });
});

describe("hostel invoices and slip", () => {
  it("lists the student's hostel invoices with room type and occupants", async () => {
    const body = await (await get(`/student/hostel-invoices/${me.student.id}`, me.token)).json();
    expect(body.data).toEqual([
      {
        payment_ref: HOSTEL_REF,
        generated_date: "2025-01-10T10:00:00.000Z",
        amount: 35_000,
        session: "2024/2025",
        payment_status: "success",
        room_type: { name: "Queen Amina Hall — 4-bed room", num_of_occupants: 4 },
      },
    ]);
  });

  it("answers the hostel slip with its own signed link", async () => {
    const { data } = await (await get(`/student/invoice/hostel/${HOSTEL_REF}`, me.token)).json();
    expect(data.invoice.payment_ref).toBe(HOSTEL_REF);
    expect(data.verify_url).toBe(
      `http://localhost:4321/verify/${slipToken("hostel", HOSTEL_REF, kit.api.deps.slipSigningKey)}`,
    );
  });
});

describe("GET /slips/verify/:token (public)", () => {
  it("confirms a genuine school fee slip without a session: name, matric number, amount, session, date", async () => {
    const { data: slip } = await (
      await get(`/student/invoice/school-fee/${paid}`, me.token)
    ).json();
    const response = await get(verifyPath(slip.verify_url));
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({
      kind: "school-fee",
      reference: paid,
      name: "Okafor Ngozi Ada",
      matric_no: "CCE/2024/BIO/0001",
      amount: 72_000,
      session: "2024/2025",
      date: "2025-01-15T09:00:00.000Z",
      description: "School Fee Payment",
    });
  });

  it("confirms a genuine hostel slip", async () => {
    const { data: slip } = await (
      await get(`/student/invoice/hostel/${HOSTEL_REF}`, me.token)
    ).json();
    const body = await (await get(verifyPath(slip.verify_url))).json();
    expect(body.data).toMatchObject({
      kind: "hostel",
      reference: HOSTEL_REF,
      amount: 35_000,
      description: "Hostel Payment",
    });
  });

  const key = () => kit.api.deps.slipSigningKey;
  it.each([
    ["signed with another key", () => slipToken("school-fee", paid, "not-the-college-key")],
    ["for an unpaid payment", () => slipToken("school-fee", pending, key())],
    ["for an unknown reference", () => slipToken("school-fee", "CCE-20250115-FORGED00000", key())],
    ["naming a school fee as a hostel slip", () => slipToken("hostel", paid, key())],
    [
      "altered",
      () => slipToken("school-fee", paid, key()).replace(/.$/, (c) => (c === "A" ? "B" : "A")),
    ],
    ["of rubbish", () => "not-a-token"],
    ["overlong", () => "x".repeat(500)],
  ])("says 'not genuine' for a token %s, never a 500", async (_case, token) => {
    const response = await get(`/slips/verify/${encodeURIComponent(token())}`);
    expect([400, 404]).toContain(response.status);
    expect((await response.json()).message).toBe(
      "This slip could not be verified. It was not issued by this portal, or it has been altered.",
    );
  });
});

// The quote the verify page and slip show is the scheduled one; this guards the fixture.
it("the fixture's full fee is the seeded one", () => expect(FULL_100_2024).toBe(120_000));
