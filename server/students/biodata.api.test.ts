import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { StudentRecord } from "../../common/students/student-record.ts";
import { makeImage } from "../uploads/images.test-kit.ts";
import { createBiodataHarness, type BiodataHarness } from "./biodata.test-kit.ts";

let h: BiodataHarness;

beforeAll(async () => {
  h = await createBiodataHarness();
});
afterAll(() => h.api.close());

// The spec's page sends every field, empty ones as "".
const EMPTY_FORM = {
  photo: "",
  yob: "",
  mob: "",
  dob: "",
  religion: "",
  phone: "",
  marital_status: "",
  email: "",
  country_origin: "",
  state_origin: "",
  lga_origin: "",
};

async function myRecord() {
  const response = await h.api.request("/student/me", { token: h.token });
  return StudentRecord.parse((await response.json()).data);
}

describe("PATCH /student/biodata-update/{id}", () => {
  it("treats empty strings as 'leave unchanged' and answers the record", async () => {
    const before = await h.snapshot();

    const response = await h.sendBiodata(h.me.id, EMPTY_FORM);

    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ status: "success", message: "Update successful" });
    expect(StudentRecord.parse(body.data).religion).toBe("Christianity");
    const after = await h.snapshot();
    expect({ ...after.row, updatedAt: null }).toEqual({ ...before.row, updatedAt: null });
    expect(after.files).toEqual(before.files);
  });

  it("updates every field and replaces the photo, deleting the old file", async () => {
    const oldPhoto = (await myRecord()).photo!;
    const oldFiles = (await h.snapshot()).files;
    const camera = await makeImage(2400, 1800, "jpeg", {
      exif: {
        IFD0: { Make: "PhoneCam" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "6/1 27/1 0/1" },
      },
    });

    const response = await h.sendBiodata(
      h.me.id,
      {
        religion: "Others",
        marital_status: "Married",
        dob: "29",
        mob: "2",
        yob: "2004",
        country_origin: "Nigeria",
        state_origin: "lagos",
        lga_origin: "Ikeja",
      },
      { photo: { bytes: camera, name: "IMG_0001.JPG" } },
    );

    expect(response.status).toBe(200);
    const record = await myRecord();
    expect(record).toMatchObject({
      religion: "Others",
      marital_status: "Married",
      dob: 29,
      mob: 2,
      yob: 2004,
      country_origin: "Nigeria",
      state_origin: "Lagos",
      lga_origin: "Ikeja",
    });
    expect(record.photo).toMatch(/^\/api\/student\/photo\/[0-9a-f-]{36}\.jpg$/);
    expect(record.photo).not.toBe(oldPhoto);
    const files = (await h.snapshot()).files;
    expect(files).toHaveLength(1);
    expect(files).not.toEqual(oldFiles);

    const served = await h.api.request(record.photo!.replace(/^\/api/, ""), { token: h.token });
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["jpeg", 600, 450]);
    expect(metadata.exif).toBeUndefined();
    const oldServed = await h.api.request(oldPhoto.replace(/^\/api/, ""), { token: h.token });
    expect(oldServed.status).toBe(404);
  });

  it("serves the photo to signed-in users only", async () => {
    const { photo } = await myRecord();
    expect((await h.api.request(photo!.replace(/^\/api/, ""))).status).toBe(401);
  });

  it("serves a photo only to its own student: another's key is answered like an unknown one", async () => {
    const { photo } = await myRecord();
    const otherToken = await h.api.signIn(h.other.phone);
    const response = await h.api.request(photo!.replace(/^\/api/, ""), { token: otherToken });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toBe("That photo does not exist.");
  });

  it("takes the student's own phone and e-mail sent again as no change: no password, no mail", async () => {
    const mailsBefore = (await h.sentMails()).length;
    const response = await h.sendBiodata(h.me.id, {
      phone: "+234 803 777 0001",
      email: "NGOZI.EZE@example.com",
      religion: "Islam",
    });
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe("Update successful");
    expect((await h.sentMails()).length).toBe(mailsBefore);
  });

  it("ignores fields the student may not change, such as the surname", async () => {
    const before = await myRecord();
    const response = await h.sendBiodata(h.me.id, {
      surname: "Hacker",
      matric_no: "X",
      biodata_locked: "true",
      religion: "Islam",
    });
    expect(response.status).toBe(200);
    const after = await myRecord();
    expect([after.surname, after.matric_no, after.biodata_locked]).toEqual([
      before.surname,
      before.matric_no,
      false,
    ]);
    expect(after.religion).toBe("Islam");
  });

  it("takes the place of origin as one answer: a new country clears the Nigerian state and LGA", async () => {
    expect((await h.sendBiodata(h.me.id, { country_origin: "Ghana" })).status).toBe(200);
    expect(await myRecord()).toMatchObject({
      country_origin: "Ghana",
      state_origin: null,
      lga_origin: null,
    });

    const back = await h.sendBiodata(h.me.id, {
      country_origin: "Nigeria",
      state_origin: "FCT",
      lga_origin: "Bwari",
    });
    expect(back.status).toBe(200);
    expect(await myRecord()).toMatchObject({
      state_origin: "Federal Capital Territory",
      lga_origin: "Bwari",
    });
  });

  it("accepts a PNG or WebP by content whatever the file is called, storing a JPEG", async () => {
    for (const format of ["png", "webp"] as const) {
      const bytes = await makeImage(500, 500, format);
      const response = await h.sendBiodata(h.me.id, {}, { photo: { bytes, name: "photo.jpg" } });
      expect(response.status).toBe(200);
    }
    expect((await h.snapshot()).files).toHaveLength(1);
  });
});
