import { createPaymentsKit } from "../payments.test-kit.ts";
import type { HarnessOverrides } from "../../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";

/** The payments kit with a signed-in bursar and the steps the bursary's tests repeat. */
export async function createBursaryKit(overrides: HarnessOverrides = {}) {
  const kit = await createPaymentsKit(overrides);
  const { api } = kit;
  const bursar = await createStaff(api, { roles: ["bursar"], totp: true });
  const token = await staffSignIn(api, bursar);
  const asBursar = (path: string, init: { method?: string; json?: unknown } = {}) =>
    api.request(path, { ...init, token });

  /** The webhook the sandbox sent last for `reference` (an event name narrows it). */
  function webhookFor(reference: string, event = "charge.success") {
    const found = api.webhooks
      .filter((hook) => hook.body.includes(`"${reference}"`) && hook.body.includes(`"${event}"`))
      .at(-1);
    if (!found) throw new Error(`no ${event} webhook for ${reference}`);
    return found.body;
  }

  /** A new student who started a payment and paid it; the webhook is delivered when asked. */
  async function paidPayment(
    options: { deliver?: boolean; who?: Awaited<ReturnType<typeof kit.newStudent>> } = {},
  ) {
    const who = options.who ?? (await kit.newStudent());
    const reference = await kit.start(who);
    await kit.payAtSandbox(reference);
    if (options.deliver ?? true) await kit.deliverWebhook(webhookFor(reference));
    return { who, reference };
  }

  /** A new student who paid the same fee twice, both webhooks delivered: the first credited, the second a duplicate. */
  async function paidTwice() {
    const who = await kit.newStudent();
    const first = await kit.start(who);
    const second = await kit.start(who);
    for (const reference of [first, second]) {
      await kit.payAtSandbox(reference);
      await kit.deliverWebhook(webhookFor(reference));
    }
    return { who, first, second };
  }

  /** Paystack's side of the sandbox, called as the sandbox's own test hooks. */
  const sandboxHook = (path: string) =>
    api.sandbox.request(path, {
      method: "POST",
      headers: { authorization: `Bearer ${api.paystackSecretKey}` },
    });

  const today = () => api.clock.now().toISOString().slice(0, 10);

  return { ...kit, bursar, asBursar, webhookFor, paidPayment, paidTwice, sandboxHook, today };
}
export type BursaryKit = Awaited<ReturnType<typeof createBursaryKit>>;
