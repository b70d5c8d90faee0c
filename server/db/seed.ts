import sharp from "sharp";
import { count } from "drizzle-orm";
import type { Database } from "./client.ts";
import { students } from "./schema.ts";
import type { PhotoStorage } from "../uploads/photo-storage.ts";
import { insertAnnouncements, insertSchool, insertSessions, insertStudent } from "./factories.ts";
import { seedCourses } from "../courses/seed.ts";
import { seedLibrary } from "../library/library-items.ts";
import { seedDemoPayments } from "../payments/seed.ts";
import { seedLockedDemoStudent } from "../students/seed.ts";
import { seedDemoStaff } from "../staff/seed.ts";
import { seedDemoResults } from "../results/seed.ts";
import { seedDemoUssdPins } from "../ussd/seed.ts";
import { ensureModes, loadModes } from "../structure/modes.ts";
import { unusablePasswordHash } from "../auth/password.ts";

/** Fills an empty database with a fictional college and two demo students (README lists them). */
export async function seedDemoData(
  db: Database,
  deps: { photos: PhotoStorage; nodeEnv: string },
): Promise<boolean> {
  if (deps.nodeEnv === "production") {
    throw new Error("Refusing to load demo data with NODE_ENV=production.");
  }
  const [existing] = await db.select({ students: count() }).from(students);
  if ((existing?.students ?? 0) > 0) return false;

  await insertSessions(db);
  // The registry's lists (decision 154). "Part-Time" is spelt with a hyphen on purpose: the demo
  // student below is written "Part Time", as a spreadsheet would have it, and matches it.
  await ensureModes(db, "study", ["Full Time", "Part-Time"]);
  await ensureModes(db, "entry", ["UTME", "Direct Entry"]);
  const sciences = await insertSchool(db, {
    name: "School of Sciences",
    departments: ["Biology", "Chemistry", "Mathematics", "Integrated Science", "Computer Science"],
    programmes: ["NCE Biology/Chemistry", "B.Sc.(Ed.) Computer Science Education"],
  });
  const arts = await insertSchool(db, {
    name: "School of Arts and Social Sciences",
    departments: ["English", "Social Studies", "Economics"],
    programmes: ["NCE English/Social Studies"],
  });
  const education = await insertSchool(db, {
    name: "School of Education",
    departments: ["Primary Education Studies", "Early Childhood Care Education"],
    programmes: ["NCE Primary Education Studies"],
  });
  await insertAnnouncements(db, [
    "Course registration for the 2024/2025 session closes on Friday, 31 January 2025.",
    "First semester examinations begin on Monday, 10 March 2025. Check the timetable on the notice board.",
    "School fees may be paid in two installments. The second installment is due before the second semester examinations.",
    "Teaching practice orientation for NCE III students holds in the main auditorium on Wednesday at 10 a.m.",
  ]);

  const photo = await deps.photos.save(await demoPassportPhoto(), "jpg");
  await insertStudent(db, {
    phone: "08030000001",
    email: "chiamaka.okonkwo@example.com",
    title: "Miss",
    surname: "Okonkwo",
    othername: "Chiamaka Grace",
    username: "chiamaka.okonkwo",
    photo,
    matricNo: "CCE/2023/BIO/0042",
    applicationNo: "APP/2023/001234",
    departmentId: sciences.departments.find((d) => d.name === "Biology")!.id,
    programmeId: sciences.programmes[0]!.id,
    entrySession: "2023/2024",
    entryMode: "UTME",
    studyMode: "Full Time",
    level: 200,
    maritalStatus: "Single",
    religion: "Christianity",
    dob: 14,
    mob: 6,
    yob: 2004,
    countryOrigin: "Nigeria",
    stateOrigin: "Anambra",
    lgaOrigin: "Onitsha North",
  });
  await insertStudent(db, {
    phone: "08030000002",
    email: "ibrahim.bello@example.com",
    title: "Mr",
    surname: "Bello",
    othername: "Ibrahim Musa",
    username: "ibrahim.bello",
    matricNo: "CCE/2024/ENG/0107",
    applicationNo: "APP/2024/004821",
    departmentId: arts.departments.find((d) => d.name === "English")!.id,
    programmeId: arts.programmes[0]!.id,
    entrySession: "2024/2025",
    entryMode: "UTME",
    studyMode: "Full Time",
    level: 100,
  });
  await seedLockedDemoStudent(db);
  // A part-time student with no e-mail address, not yet activated: the registry shows the
  // activation link on their record instead of mailing it (decision 156).
  const modes = await loadModes(db);
  await insertStudent(db, {
    phone: "08030000004",
    email: null,
    title: "Mrs",
    surname: "Yusuf",
    othername: "Amina Hauwa",
    matricNo: "CCE/2024/PES/0311",
    applicationNo: "APP/2024/007730",
    departmentId: education.departments.find((d) => d.name === "Primary Education Studies")!.id,
    programmeId: education.programmes[0]!.id,
    entrySession: "2024/2025",
    entryMode: modes.entry.find("Direct Entry")!,
    studyMode: modes.study.find("Part Time")!,
    level: 100,
    passwordHash: unusablePasswordHash(),
  });
  await seedDemoPayments(db);
  await seedDemoUssdPins(db);
  await seedLibrary(db);
  await seedCourses(db, { approvedHistoryFor: "08030000001" });
  await seedDemoStaff(db);
  await seedDemoResults(db);
  return true;
}

/** A plain silhouette, drawn here so the repository carries no personal photo. */
async function demoPassportPhoto() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="480">
    <rect width="400" height="480" fill="#dbe7f3"/>
    <circle cx="200" cy="180" r="90" fill="#5b6b7c"/>
    <path d="M60 480 C60 340 340 340 340 480 Z" fill="#5b6b7c"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}
