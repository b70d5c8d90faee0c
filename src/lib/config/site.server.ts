import { z } from "zod";
import { parseEnv } from "../../../common/config/parse-env.ts";
import { logLevelOf, type LogLevel } from "../../../common/log/log-level.ts";

/** Names, contacts and credits shown on the pages: configuration, so another college can deploy it. */
export const SiteEnv = z.object({
  COLLEGE_NAME: z.string().min(3).default("Crownfield College of Education, Benin City"),
  COLLEGE_SHORT_NAME: z.string().min(2).default("Crownfield College of Education"),
  HOSTEL_COLLEGE_NAME: z.string().min(3).default("Crownfield College of Education (Hostels)"),
  UNIVERSITY_NAME: z.string().min(3).default("University of Benin"),
  SUPPORT_PHONE: z.string().min(5).default("0803 000 0000"),
  SUPPORT_CONTACT_LABEL: z.string().min(2).default("Call or WhatsApp the ICT help desk"),
  COPYRIGHT_LINE: z
    .string()
    .min(3)
    .default("© 2023 Crownfield College of Education. All rights reserved."),
  VENDOR_NAME: z.string().min(2).default("Crownfield ICT Unit"),
  /** The college API as the page server reaches it (not through the proxy). */
  API_URL: z.url().default("http://127.0.0.1:4322"),
  PUBLIC_ORIGIN: z.url().default("http://localhost:4321"),
});
export type Site = z.infer<typeof SiteEnv>;

let cached: Site | undefined;
/** Read at request time on the page server, once. */
export function site(): Site {
  cached ??= parseEnv(SiteEnv, process.env);
  return cached;
}

/**
 * The secret the proxy signs with (PROXY_SHARED_SECRET, decision 122), read at each call rather
 * than once: a page request checks it, and tests change it between requests.
 */
export function proxySecret(): string | undefined {
  return process.env.PROXY_SHARED_SECRET;
}

/** LOG_LEVEL for the page server's logger, made once at its first line (decision 125). */
export function pagesLogLevel(): LogLevel {
  return logLevelOf(process.env);
}
