import { asc, eq } from "drizzle-orm";
import { storedFiles, students } from "../db/schema.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { createApiHarness } from "../testing/api-harness.test-kit.ts";
import { makeImage } from "../uploads/images.test-kit.ts";

/** A file part for the biodata form: bytes with the name and type the browser claims. */
export type PhotoPart = { bytes: Uint8Array; name?: string; type?: string };

/**
 * The API harness with photos kept in the test database, a student with a stored
 * photo (`me`), another student whose phone and e-mail are taken, and helpers to send the
 * biodata form, to confirm a mailed link and to snapshot everything an update could change.
 * Mail goes through the API's queue to a mailer that keeps it (set `mailer.failing` to make
 * sending fail); `sentMails()` and `mailedLink()` first send what the queue holds.
 */
export async function createBiodataHarness() {
  const mails: MailMessage[] = [];
  const mailer = {
    failing: false,
    async send(message: MailMessage) {
      if (mailer.failing) throw new Error("mail server unreachable");
      mails.push(message);
    },
    describe: () => "test double",
  };
  const api = await createApiHarness({ mailer });
  const photos = api.deps.photos;
  const me = await api.createStudent({
    phone: "08037770001",
    email: "ngozi.eze@example.com",
    photo: await photos.save(await makeImage(400, 480, "jpeg"), "jpg"),
    maritalStatus: "Single",
    religion: "Christianity",
    dob: 14,
    mob: 6,
    yob: 2004,
    countryOrigin: "Nigeria",
    stateOrigin: "Anambra",
    lgaOrigin: "Onitsha North",
  });
  const other = await api.createStudent({ phone: "08037770002", email: "musa.bello@example.com" });
  const token = await api.signIn(me.phone);

  function sendBiodata(
    id: number,
    fields: Record<string, string>,
    options: { photo?: PhotoPart; token?: string | null } = {},
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (options.photo) {
      const { bytes, name = "passport.jpg", type = "image/jpeg" } = options.photo;
      form.append("photo", new File([new Uint8Array(bytes)], name, { type }));
    }
    const bearer = options.token === undefined ? token : options.token;
    return api.request(`/student/biodata-update/${id}`, {
      method: "PATCH",
      body: form,
      ...(bearer ? { token: bearer } : {}),
    });
  }

  /** Opens a mailed confirmation link as the page does: its token posted with a session. */
  function confirmLink(link: string, options: { token?: string } = {}) {
    const confirmation = /\/biodata\/confirm\/([A-Za-z0-9_-]+)$/.exec(link)?.[1] ?? link;
    return api.request("/student/contact-change/confirm", {
      method: "POST",
      json: { token: confirmation },
      token: options.token ?? token,
    });
  }

  /** Every mail sent so far, once the queue has sent what is due. */
  async function sentMails() {
    await api.deliverMail();
    return [...mails];
  }

  /** The link in the newest mail to `to`. */
  async function mailedLink(to: string) {
    const mail = (await sentMails()).findLast((message) => message.to === to);
    const link = mail?.text.match(/http\S+\/biodata\/confirm\/\S+/)?.[0];
    if (!link) throw new Error(`no confirmation link mailed to ${to}`);
    return link;
  }

  /** The student's row and the keys of the stored photos, to prove a refusal changed nothing. */
  async function snapshot(id = me.id) {
    const [row] = await api.db.select().from(students).where(eq(students.id, id));
    const files = await api.db
      .select({ key: storedFiles.key })
      .from(storedFiles)
      .orderBy(asc(storedFiles.key));
    return { row, files: files.map((file) => file.key) };
  }

  return {
    api,
    photos,
    me,
    other,
    token,
    sentMails,
    mailer,
    sendBiodata,
    confirmLink,
    mailedLink,
    snapshot,
  };
}
export type BiodataHarness = Awaited<ReturnType<typeof createBiodataHarness>>;
