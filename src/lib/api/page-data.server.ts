import { SessionEnded } from "./server-api.server.ts";
import { pagesLog } from "../log/pages-log.server.ts";

/**
 * A page's data, or null when the API could not give it. The page still renders, with a message
 * and a way to retry, instead of the error page; the failure goes to the log (spec section 8: list
 * failures on the history pages are only logged). An ended session still goes to sign-in.
 */
export async function loadPageData<T>(what: string, load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof SessionEnded) throw error;
    pagesLog().error(`${what} not loaded`, { error });
    return null;
  }
}
