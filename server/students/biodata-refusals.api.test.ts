import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { students } from "../db/schema.ts";
import { makeImage, makeOneBitPng, withJpegDimensions } from "../uploads/images.test-kit.ts";
import { BIODATA_LOCKED } from "../../common/students/biodata.ts";
import { endMailBackOff, mailJobsTo } from "../testing/mail-jobs.test-kit.ts";
import { createBiodataHarness, type BiodataHarness, type PhotoPart } from "./biodata.test-kit.ts";

let h: BiodataHarness;

beforeAll(async () => {
  h = await createBiodataHarness();
});
afterAll(() => h.api.close());

async function expectRefused(
  response: Response,
  status: number,
  message: string | RegExp,
  field?: string,
) {
  const body = await response.json();
  expect(response.status).toBe(status);
  expect(body.status).toBe("error");
  if (typeof message === "string") expect(body.error.message).toBe(message);
  else expect(body.error.message).toMatch(message);
  if (field) expect(Object.keys(body.error.fields ?? {})).toEqual([field]);
}

const PHONE_FORMAT = "Enter a Nigerian mobile number such as 08031234567.";
const TOO_BIG = "The photo is larger than 5 MB. Choose a smaller photo.";
const WRONG_TYPE = "The passport photo must be a JPEG, PNG or WebP image.";
const BOMB =
  /^The photo is \d+×\d+ pixels, which is too large to process\. Choose a photo under 40 megapixels\.$/;

type FieldRefusal = {
  case: string;
  fields: Record<string, string>;
  field: string;
  message: string;
};

describe("PATCH /student/biodata-update/{id} refuses a field at fault with a 400, changing nothing", () => {
  it.each<FieldRefusal>([
    {
      case: "31 April",
      fields: { dob: "31", mob: "4", yob: "2004" },
      field: "dob",
      message: "31/4/2004 is not a real date: April 2004 has 30 days.",
    },
    {
      case: "29 February 2023",
      fields: { dob: "29", mob: "2", yob: "2023" },
      field: "dob",
      message: "29/2/2023 is not a real date: February 2023 has 28 days.",
    },
    {
      case: "a month of 13",
      fields: { mob: "13" },
      field: "mob",
      message: "Enter the month of birth as a number from 1 to 12.",
    },
    {
      case: "a day in words",
      fields: { dob: "first" },
      field: "dob",
      message: "Enter the day of birth as a number, such as 14.",
    },
    {
      case: "a birth date in the future",
      fields: { dob: "1", mob: "1", yob: "2030" },
      field: "yob",
      message: "Enter a year of birth from 1900 to 2025.",
    },
    {
      case: "a malformed e-mail",
      fields: { email: "ngozi@" },
      field: "email",
      message: "Enter a valid e-mail address.",
    },
    {
      case: "a landline number",
      fields: { phone: "012345678" },
      field: "phone",
      message: PHONE_FORMAT,
    },
    {
      case: "a foreign mobile number",
      fields: { phone: "+447911123456" },
      field: "phone",
      message: PHONE_FORMAT,
    },
    {
      case: "an unknown religion",
      fields: { religion: "Sun worship" },
      field: "religion",
      message: "Choose a religion from the list: Christianity, Islam or Others.",
    },
    {
      case: "an unknown marital status",
      fields: { marital_status: "Divorced" },
      field: "marital_status",
      message: "Choose a marital status from the list: Single, Married or Seperated.",
    },
    {
      case: "an unknown country",
      fields: { country_origin: "Atlantis" },
      field: "country_origin",
      message: "Choose your country of origin from the list.",
    },
    {
      case: "an unknown state",
      fields: { country_origin: "Nigeria", state_origin: "Lagoss", lga_origin: "Ikeja" },
      field: "state_origin",
      message: '"Lagoss" is not a Nigerian state. Choose one from the list.',
    },
    {
      case: "an LGA of another state",
      fields: { country_origin: "Nigeria", state_origin: "Kano", lga_origin: "Ikeja" },
      field: "lga_origin",
      message: '"Ikeja" is not an LGA of Kano. Choose one from the list.',
    },
    {
      case: "an LGA that does not exist",
      fields: { state_origin: "Anambra", lga_origin: "Gotham" },
      field: "lga_origin",
      message: '"Gotham" is not an LGA of Anambra. Choose one from the list.',
    },
    {
      case: "an overlong field",
      fields: { religion: "x".repeat(10_000) },
      field: "religion",
      message: "Choose a religion from the list.",
    },
    {
      case: "the photo as text",
      fields: { photo: "passport.jpg" },
      field: "photo",
      message: "Send the passport photo as a file.",
    },
  ])("$case", async ({ fields, field, message }) => {
    const before = await h.snapshot();

    await expectRefused(await h.sendBiodata(h.me.id, fields), 400, message, field);

    expect(await h.snapshot()).toEqual(before);
  });

  it("refuses a field sent twice", async () => {
    const before = await h.snapshot();
    const form = new FormData();
    form.append("phone", "08037770001");
    form.append("phone", "08037779999");
    const response = await h.api.request(`/student/biodata-update/${h.me.id}`, {
      method: "PATCH",
      body: form,
      token: h.token,
    });
    await expectRefused(response, 400, "Send the phone field once.", "phone");
    expect(await h.snapshot()).toEqual(before);
  });

  it("refuses a JSON body: the update is a multipart form", async () => {
    const response = await h.api.request(`/student/biodata-update/${h.me.id}`, {
      method: "PATCH",
      json: { religion: "Islam" },
      token: h.token,
    });
    await expectRefused(response, 400, "Send the biodata as a form (multipart/form-data).");
  });

  it("reports every field at fault at once", async () => {
    const response = await h.sendBiodata(h.me.id, { email: "x", phone: "1", dob: "31", mob: "4" });
    expect(response.status).toBe(400);
    expect(Object.keys((await response.json()).error.fields).sort()).toEqual(["email", "phone"]);
  });
});

const PASSWORD_NEEDED = "Enter your current password to change your phone number or e-mail.";
const PASSWORD_WRONG =
  "That is not your current password. Enter the password you sign in with, or leave your phone number and e-mail as they are.";

describe("PATCH /student/biodata-update/{id} refuses a new phone or e-mail without the current password", () => {
  it.each<FieldRefusal & { status: number }>([
    {
      case: "a new phone and no password",
      fields: { phone: "08037771234" },
      status: 400,
      field: "current_password",
      message: PASSWORD_NEEDED,
    },
    {
      case: "a new e-mail and a blank password",
      fields: { email: "ngozi.new@example.com", current_password: "" },
      status: 400,
      field: "current_password",
      message: PASSWORD_NEEDED,
    },
    {
      case: "a new phone and a wrong password",
      fields: { phone: "08037771234", current_password: "guess1234" },
      status: 403,
      field: "current_password",
      message: PASSWORD_WRONG,
    },
  ])(
    "$case ($status), saving none of the other fields or the photo either",
    async ({ fields, status, field, message }) => {
      const before = await h.snapshot();
      const mailsBefore = (await h.sentMails()).length;
      const photo = { bytes: await makeImage(300, 300, "jpeg") };

      const response = await h.sendBiodata(h.me.id, { ...fields, religion: "Islam" }, { photo });

      await expectRefused(response, status, message, field);
      expect(await h.snapshot()).toEqual(before);
      expect((await h.sentMails()).length).toBe(mailsBefore);
    },
  );

  it("stops counting wrong passwords after 5 in 15 minutes (429), even for the right one", async () => {
    const guessed = await h.api.createStudent({ phone: "08037770004" });
    const guessedToken = await h.api.signIn(guessed.phone);
    const guess = (current_password: string) =>
      h.sendBiodata(
        guessed.id,
        { phone: "08037771235", current_password },
        { token: guessedToken },
      );
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await guess(`wrong-${attempt}`)).status).toBe(403);
    }
    const before = await h.snapshot(guessed.id);

    const blocked = await guess("demo1234");

    await expectRefused(
      blocked,
      429,
      "Too many wrong passwords. Wait 15 minutes and try again, or reset your password.",
      "current_password",
    );
    expect(blocked.headers.get("retry-after")).toBe("900");
    expect(await h.snapshot(guessed.id)).toEqual(before);
    h.api.clock.advance(15 * 60_000);
    expect((await guess("demo1234")).status).toBe(200);
  });

  it("sends at most 5 confirmation links an hour per student (429)", async () => {
    const busy = await h.api.createStudent({ phone: "08037770005" });
    const busyToken = await h.api.signIn(busy.phone);
    const change = (n: number) =>
      h.sendBiodata(
        busy.id,
        { email: `busy.${n}@example.com`, current_password: "demo1234" },
        { token: busyToken },
      );
    for (let n = 1; n <= 5; n++) expect((await change(n)).status).toBe(200);
    const mailsBefore = (await h.sentMails()).length;

    const response = await change(6);

    await expectRefused(
      response,
      429,
      /^You have asked for 5 confirmation links in the last hour\./,
    );
    expect((await h.sentMails()).length).toBe(mailsBefore);
  });

  it("answers as usual when the mail server is down, and the link arrives on a later try", async () => {
    h.mailer.failing = true;
    try {
      const response = await h.sendBiodata(h.me.id, {
        phone: "08037771236",
        current_password: "demo1234",
      });
      expect(response.status).toBe(200);
      expect((await response.json()).message).toBe(
        "Your other details are saved. To change your phone number, open the link we sent to ngozi.eze@example.com within 60 minutes, while signed in.",
      );
      expect(await h.api.deliverMail()).toEqual({ sent: 0, failed: 1 });
      expect((await mailJobsTo(h.api.db, "ngozi.eze@example.com")).at(-1)).toMatchObject({
        state: "retry",
        waits: true,
      });
      expect((await h.snapshot()).row!.phone).toBe(h.me.phone);
    } finally {
      h.mailer.failing = false;
    }
    await endMailBackOff(h.api.db);
    const confirmed = await h.confirmLink(await h.mailedLink("ngozi.eze@example.com"));
    expect(confirmed.status).toBe(200);
    expect((await h.snapshot()).row!.phone).toBe("08037771236");
  });
});

describe("PATCH /student/biodata-update/{id} refuses photos by their content and size", () => {
  const jpegOf = async (width: number, height: number) => makeImage(width, height, "jpeg");
  const padded = async (totalBytes: number) => {
    const jpeg = await jpegOf(300, 300);
    return Buffer.concat([jpeg, Buffer.alloc(totalBytes - jpeg.length)]);
  };

  it.each<{
    case: string;
    photo: () => Promise<PhotoPart>;
    status: number;
    message: string | RegExp;
  }>([
    {
      case: "a PHP script renamed passport.jpg",
      photo: async () => ({
        bytes: Buffer.from("<?php system($_GET['c']); ?>"),
        name: "passport.jpg",
      }),
      status: 415,
      message: WRONG_TYPE,
    },
    {
      case: "a GIF claiming to be a PNG",
      photo: async () => ({
        bytes: await makeImage(300, 300, "gif"),
        name: "me.png",
        type: "image/png",
      }),
      status: 415,
      message: WRONG_TYPE,
    },
    {
      case: "a 20 MB upload",
      photo: async () => ({ bytes: await padded(20 * 1024 * 1024) }),
      status: 413,
      message: TOO_BIG,
    },
    {
      case: "a 1-bit PNG of 30000×30000 pixels (image bomb)",
      photo: async () => ({ bytes: makeOneBitPng(30000, 30000), name: "bomb.png" }),
      status: 413,
      message: BOMB,
    },
    {
      case: "a JPEG whose header claims 60000×60000 pixels",
      photo: async () => ({ bytes: withJpegDimensions(await jpegOf(200, 200), 60000, 60000) }),
      status: 413,
      message: BOMB,
    },
    {
      case: "a 60×60 thumbnail",
      photo: async () => ({ bytes: await jpegOf(60, 60) }),
      status: 400,
      message: /too small to be a passport photo/,
    },
  ])("$case", async ({ photo, status, message }) => {
    const before = await h.snapshot();

    const response = await h.sendBiodata(h.me.id, { religion: "Islam" }, { photo: await photo() });

    await expectRefused(response, status, message, "photo");
    expect(await h.snapshot()).toEqual(before);
  });

  it("counts the whole body: a photo just under 5 MB plus 70 KB of text is refused (413)", async () => {
    const before = await h.snapshot();
    const photo = { bytes: await padded(5 * 1024 * 1024 - 1000) };

    const response = await h.sendBiodata(h.me.id, { lga_origin: " ".repeat(70_000) }, { photo });

    await expectRefused(response, 413, TOO_BIG, "photo");
    expect(await h.snapshot()).toEqual(before);
  });
});

describe("PATCH /student/biodata-update/{id} refuses other people's and locked records", () => {
  it("refuses another student's id with 403, before reading the upload", async () => {
    const before = await h.snapshot(h.other.id);

    const response = await h.sendBiodata(h.other.id, { religion: "Islam", phone: "08037771234" });

    await expectRefused(response, 403, "You can only see and change your own record.");
    expect(await h.snapshot(h.other.id)).toEqual(before);
  });

  it("refuses without a session (401) and a malformed id (400)", async () => {
    await expectRefused(
      await h.sendBiodata(h.me.id, { religion: "Islam" }, { token: null }),
      401,
      "Your session has ended. Please sign in again.",
    );
    const malformed = await h.api.request("/student/biodata-update/abc", {
      method: "PATCH",
      token: h.token,
    });
    expect(malformed.status).toBe(400);
  });

  it("refuses a record the registry has locked with a sentence saying why", async () => {
    const locked = await h.api.createStudent({
      phone: "08037770003",
      biodataLocked: true,
      religion: "Islam",
    });
    const lockedToken = await h.api.signIn(locked.phone);
    const before = await h.snapshot(locked.id);

    const response = await h.sendBiodata(
      locked.id,
      { religion: "Christianity" },
      {
        token: lockedToken,
        photo: { bytes: await makeImage(300, 300, "jpeg") },
      },
    );

    await expectRefused(response, 403, BIODATA_LOCKED);
    expect(await h.snapshot(locked.id)).toEqual(before);
  });

  it("refuses when the registry locks the record after the student signed in", async () => {
    await h.api.db.update(students).set({ biodataLocked: true }).where(eq(students.id, h.me.id));
    try {
      const before = await h.snapshot();
      await expectRefused(await h.sendBiodata(h.me.id, { religion: "Islam" }), 403, BIODATA_LOCKED);
      expect(await h.snapshot()).toEqual(before);
    } finally {
      await h.api.db.update(students).set({ biodataLocked: false }).where(eq(students.id, h.me.id));
    }
  });
});
