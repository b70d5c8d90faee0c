import { z } from "zod";

/** One page of the audit log as GET /staff/audit answers it. */
export const AuditPage = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      at: z.string(),
      staff_id: z.number().nullable(),
      staff_name: z.string(),
      action: z.string(),
      entity: z.string(),
      entity_id: z.string().nullable(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type AuditPage = z.infer<typeof AuditPage>;
