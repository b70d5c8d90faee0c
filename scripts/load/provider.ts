import { request } from "undici";
import { PUBLIC_SANDBOX_KEY } from "../../server/paystack/secret-key.ts";

type ListPage = { data: { reference: string }[]; meta: { pageCount: number } };

/**
 * The references the Paystack sandbox holds as paid, asked through its `GET /transaction` with
 * the sandbox's public key, as the bursary's reconciliation asks it. Null (and why) when it cannot
 * be asked: a portal on a real Paystack key, or one that has stopped.
 */
export async function providerPaidReferences(
  checkoutOrigin: string,
): Promise<{ paid: Set<string> | null; problem?: string }> {
  const paid = new Set<string>();
  const address = new URL(checkoutOrigin);
  if (address.hostname === "localhost") address.hostname = "127.0.0.1";
  try {
    for (let page = 1, pages = 1; page <= pages; page++) {
      const url = new URL(
        `/transaction?${new URLSearchParams({ status: "success", perPage: "1000", page: String(page) })}`,
        address,
      );
      const response = await request(url, {
        headers: {
          authorization: `Bearer ${PUBLIC_SANDBOX_KEY}`,
          accept: "application/json",
          host: new URL(checkoutOrigin).host,
        },
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await response.body.json()) as ListPage;
      if (response.statusCode !== 200)
        return { paid: null, problem: `the sandbox answered HTTP ${response.statusCode}` };
      for (const transaction of body.data) paid.add(transaction.reference);
      pages = body.meta.pageCount;
    }
  } catch (error) {
    return {
      paid: null,
      problem: `the sandbox at ${checkoutOrigin} could not be asked: ${(error as Error).message}`,
    };
  }
  return { paid };
}
