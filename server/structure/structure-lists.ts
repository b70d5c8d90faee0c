import { and, asc, count, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { courseMappings, courses, departments, faculties, programmes } from "../db/schema.ts";
import type { z } from "zod";
import type { StructureQuery } from "../../common/structure/structure.ts";

type Query = z.infer<typeof StructureQuery>;

// LIKE's wildcards typed by an officer match themselves.
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

const pageOf = <Row>(query: Query, total: { value: number } | undefined, data: Row[]) => ({
  data,
  total: total?.value ?? 0,
  page: query.page,
  page_size: query.page_size,
});
const offset = (query: Query) => (query.page - 1) * query.page_size;

export async function facultyList(db: Database, query: Query) {
  const where = query.q ? ilike(faculties.name, containing(query.q)) : undefined;
  const [total] = await db.select({ value: count() }).from(faculties).where(where);
  const rows = await db
    .select({
      id: faculties.id,
      name: faculties.name,
      // Spelled out: inside a subquery drizzle would leave the column names unqualified.
      departments: sql<number>`(select count(*)::int from "departments" where "departments"."faculty_id" = "faculties"."id")`,
      programmes: sql<number>`(select count(*)::int from "programmes" where "programmes"."faculty_id" = "faculties"."id")`,
    })
    .from(faculties)
    .where(where)
    .orderBy(asc(faculties.name))
    .limit(query.page_size)
    .offset(offset(query));
  return pageOf(query, total, rows);
}

export async function departmentList(db: Database, query: Query) {
  const where = query.q ? ilike(departments.name, containing(query.q)) : undefined;
  const [total] = await db.select({ value: count() }).from(departments).where(where);
  const rows = await db
    .select({
      id: departments.id,
      name: departments.name,
      faculty_id: departments.facultyId,
      faculty: faculties.name,
    })
    .from(departments)
    .innerJoin(faculties, eq(faculties.id, departments.facultyId))
    .where(where)
    .orderBy(asc(departments.name))
    .limit(query.page_size)
    .offset(offset(query));
  return pageOf(query, total, rows);
}

export async function programmeList(db: Database, query: Query) {
  const where = query.q ? ilike(programmes.name, containing(query.q)) : undefined;
  const [total] = await db.select({ value: count() }).from(programmes).where(where);
  const rows = await db
    .select({
      id: programmes.id,
      name: programmes.name,
      faculty_id: programmes.facultyId,
      faculty: faculties.name,
      final_level: programmes.finalLevel,
      students: sql<number>`(select count(*)::int from "students" where "students"."programme_id" = "programmes"."id")`,
    })
    .from(programmes)
    .innerJoin(faculties, eq(faculties.id, programmes.facultyId))
    .where(where)
    .orderBy(asc(programmes.name))
    .limit(query.page_size)
    .offset(offset(query));
  return pageOf(query, total, rows);
}

export async function courseList(db: Database, query: Query) {
  const where = query.q
    ? or(ilike(courses.code, containing(query.q)), ilike(courses.title, containing(query.q)))
    : undefined;
  const [total] = await db.select({ value: count() }).from(courses).where(where);
  const rows = await db
    .select({
      id: courses.id,
      code: courses.code,
      title: courses.title,
      unit: courses.unit,
      semester: courses.semester,
    })
    .from(courses)
    .where(where)
    .orderBy(asc(courses.code))
    .limit(query.page_size)
    .offset(offset(query));
  return pageOf(query, total, rows);
}

export async function mappingList(db: Database, query: Query) {
  const filters: SQL[] = [];
  if (query.programme_id) filters.push(eq(courseMappings.programmeId, query.programme_id));
  if (query.level) filters.push(eq(courseMappings.level, query.level));
  if (query.q) filters.push(ilike(courses.code, containing(query.q)));
  const where = filters.length ? and(...filters) : undefined;
  const [total] = await db
    .select({ value: count() })
    .from(courseMappings)
    .innerJoin(courses, eq(courses.id, courseMappings.courseId))
    .where(where);
  const rows = await db
    .select({
      id: courseMappings.id,
      course_code: courses.code,
      title: courses.title,
      unit: courses.unit,
      programme: programmes.name,
      level: courseMappings.level,
      semester: courseMappings.semester,
    })
    .from(courseMappings)
    .innerJoin(courses, eq(courses.id, courseMappings.courseId))
    .innerJoin(programmes, eq(programmes.id, courseMappings.programmeId))
    .where(where)
    .orderBy(
      asc(programmes.name),
      asc(courseMappings.level),
      asc(courseMappings.semester),
      asc(courses.code),
    )
    .limit(query.page_size)
    .offset(offset(query));
  return pageOf(query, total, rows);
}
