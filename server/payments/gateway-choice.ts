import type { ApiDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { gatewayOf, type GatewayName, type PaymentGateway } from "./gateway.ts";
import { GATEWAY_LABELS } from "../../common/payments/gateway-names.ts";
import { gatewayOfChannel, type PaymentChannel } from "../../common/payments/channels.ts";

// Which gateway a new payment goes through (decision 189): its channel names the gateway
// (common/payments/channels.ts), the portal offers some gateways (PAYMENT_GATEWAYS), and the
// bursar may narrow a fee to some of them. The server refuses any other before it creates
// anything; the Payment page shows only the ways that would be accepted.

/** The gateways a fee may be paid through now: the offered ones the bursar allows (none named: all). */
export function usableGateways(
  offered: readonly GatewayName[],
  allowedByFee: readonly GatewayName[],
): GatewayName[] {
  return allowedByFee.length ? offered.filter((name) => allowedByFee.includes(name)) : [...offered];
}

const either = (names: readonly GatewayName[]) =>
  names.map((name) => GATEWAY_LABELS[name]).join(" or ");

/** Why a fee allowed only gateways this portal does not offer cannot be paid; null when it can. */
export function noUsableGateway(
  offered: readonly GatewayName[],
  allowedByFee: readonly GatewayName[],
): string | null {
  if (usableGateways(offered, allowedByFee).length) return null;
  return `This fee can only be paid through ${either(allowedByFee)}, which this portal does not offer at the moment. Ask the bursary.`;
}

/**
 * The gateway that takes a new payment on `channel` for a fee the bursar allows `allowedByFee`
 * (empty: any offered): a 400 saying which ways are open when that gateway is not offered or not
 * allowed for this fee.
 */
export function gatewayForNewPayment(
  deps: Pick<ApiDeps, "gateways" | "offeredGateways">,
  channel: PaymentChannel,
  allowedByFee: readonly GatewayName[],
): PaymentGateway {
  const name = gatewayOfChannel(channel);
  const offered = deps.offeredGateways;
  const usable = usableGateways(offered, allowedByFee);
  if (!usable.includes(name)) {
    const refusal =
      noUsableGateway(offered, allowedByFee) ??
      (offered.includes(name)
        ? `This fee is paid through ${either(usable)} only: ${usable.map((other) => INSTEAD[other]).join(", or ")}.`
        : `${GATEWAY_LABELS[name]} is not offered on this portal. Choose another way to pay.`);
    throw new ApiError(400, refusal);
  }
  return gatewayOf(deps.gateways, { gateway: name });
}

// What the student can press instead, in the Payment page's words.
const INSTEAD: Record<GatewayName, string> = {
  paystack: "pay by card, bank transfer or USSD",
  remita: "choose Pay with Remita",
};

/**
 * A 400 when the bursar names a gateway the portal does not offer for a fee: students could
 * never pay through it, and the fee would look payable when it is not.
 */
export function refuseGatewaysNotOffered(
  deps: Pick<ApiDeps, "offeredGateways">,
  chosen: readonly GatewayName[],
) {
  const offered = deps.offeredGateways;
  const missing = chosen.filter((name) => !offered.includes(name));
  if (!missing.length) return;
  const message = `${either(missing)} is not offered on this portal (PAYMENT_GATEWAYS), so students could not pay through it. Choose among ${either(offered)}, or none for every one offered.`;
  throw new ApiError(400, message, { fields: { gateways: message } });
}
