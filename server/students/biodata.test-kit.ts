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
 *
 * A file whose tests change who owns which phone number or address can share one harness:
 * `addStudents()` gives each test a pair of its own, with numbers and addresses no other pair
 * uses, and helpers that see only the mail sent since the pair was made.
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

  async function studentPair(contacts: {
    me: { phone: string; email: string };
    other: { phone: string; email: string };
  }) {
    // Mail queued before the pair was made (a test's last request) is sent now, so that it is
    // not taken for the pair's own.
    await api.deliverMail();
    const firstMail = mails.length;
    const me = await api.createStudent({
      ...contacts.me,
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
    const other = await api.createStudent(contacts.other);
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

    /** Every mail sent since the pair was made, once the queue has sent what is due. */
    async function sentMails() {
      await api.deliverMail();
      return mails.slice(firstMail);
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

    return { me, other, token, sentMails, sendBiodata, confirmLink, mailedLink, snapshot };
  }

  let pairsMade = 0;
  /**
   * A new pair of students for one test. Its `phone(tail)` and `address(name)` make numbers and
   * addresses that are the pair's alone (the same arguments give the same answer), so a test
   * may take one for `me` without it being taken already by an earlier test.
   */
  async function addStudents() {
    pairsMade += 1;
    // 0806 is a prefix the student factory never gives; three digits of pair number, then the tail.
    const pairNumber = String(pairsMade).padStart(3, "0");
    const phone = (tail: string) => {
      if (!/^\d{4}$/.test(tail)) throw new Error(`a phone tail is four digits, not ${tail}`);
      return `0806${pairNumber}${tail}`;
    };
    const address = (name: string, domain = "example.com") => `${name}.${pairNumber}@${domain}`;
    const pair = await studentPair({
      me: { phone: phone("0001"), email: address("ngozi.eze") },
      other: { phone: phone("0002"), email: address("musa.bello") },
    });
    return { ...pair, phone, address };
  }

  const first = await studentPair({
    me: { phone: "08037770001", email: "ngozi.eze@example.com" },
    other: { phone: "08037770002", email: "musa.bello@example.com" },
  });

  return { api, photos, mailer, ...first, addStudents };
}
export type BiodataHarness = Awaited<ReturnType<typeof createBiodataHarness>>;
export type StudentPair = Awaited<ReturnType<BiodataHarness["addStudents"]>>;
