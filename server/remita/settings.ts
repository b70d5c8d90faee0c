import { FEE_KINDS, type FeeKind } from "../../common/payments/fee-kinds.ts";

/**
 * Remita's public demo credentials, published in every RemitaNet SDK and SystemSpecs' samples.
 * The local sandbox knows the portal by them outside production; production refuses them, as it
 * refuses Paystack's sandbox key, unless ALLOW_REMITA_DEMO_IN_PRODUCTION says otherwise.
 */
export const REMITA_DEMO = {
  merchantId: "2547916",
  serviceTypeId: "4430731",
  apiKey: "1946",
} as const;

/** Remita's demo hosts (both are in official code); production refuses them like the credentials. */
export const REMITA_DEMO_HOSTS = ["demo.remita.net", "remitademo.net", "www.remitademo.net"];

/** Remita's live API. */
export const REMITA_LIVE_URL = "https://login.remita.net";

/**
 * The service type each kind of fee is invoiced under: one for every kind, or one per kind where
 * a college has several (REMITA_SERVICE_TYPE_ID).
 */
export type RemitaServiceTypes = {
  /** Used for a kind not named on its own; null when every kind must be named. */
  fallback: string | null;
  byKind: Partial<Record<FeeKind, string>>;
};

const SERVICE_TYPE = /^\d{1,20}$/;

/**
 * REMITA_SERVICE_TYPE_ID as written: `4430731` (every kind), `school_fee:4430731,transcript:4430732`
 * (per kind), or both (`4430731,transcript:4430732`: the transcript fee apart, every other kind
 * under the first). Answers the service types or what is wrong with the text.
 */
export function parseServiceTypes(text: string): RemitaServiceTypes | { problem: string } {
  const types: RemitaServiceTypes = { fallback: null, byKind: {} };
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!entries.length) return { problem: "Write a service type id, e.g. 4430731." };
  for (const entry of entries) {
    const [kind, id] = entry.includes(":") ? entry.split(":", 2) : [null, entry];
    const serviceType = id!.trim();
    if (!SERVICE_TYPE.test(serviceType))
      return { problem: `"${entry}": a service type id is digits, e.g. 4430731.` };
    if (kind === null) {
      if (types.fallback !== null) return { problem: "Give only one service type without a kind." };
      types.fallback = serviceType;
      continue;
    }
    const feeKind = kind.trim() as FeeKind;
    if (!FEE_KINDS.includes(feeKind))
      return { problem: `"${kind.trim()}" is not a kind of fee; use ${FEE_KINDS.join(" or ")}.` };
    if (types.byKind[feeKind] !== undefined)
      return { problem: `${feeKind} is given two service types.` };
    types.byKind[feeKind] = serviceType;
  }
  return types;
}

/** The service type a kind of fee is invoiced under; null when the settings name none for it. */
export function serviceTypeFor(types: RemitaServiceTypes, kind: FeeKind): string | null {
  return types.byKind[kind] ?? types.fallback;
}

/** Every service type id the settings name. */
export function serviceTypeIds(types: RemitaServiceTypes): string[] {
  return [...(types.fallback === null ? [] : [types.fallback]), ...Object.values(types.byKind)];
}

/** Whether a base URL is one of Remita's demo hosts. */
export function isRemitaDemoHost(baseUrl: string): boolean {
  try {
    return REMITA_DEMO_HOSTS.includes(new URL(baseUrl).hostname.toLowerCase());
  } catch {
    return false;
  }
}
