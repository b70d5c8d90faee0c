import { NIGERIAN_STATES, type NigerianStateRecord } from "./nigeria-states.ts";

/** A state (or the FCT) with its senatorial districts and Local Government Areas. */
export type NigerianState = { name: string; senatorialDistricts: string[]; lgas: string[] };

/** Thrown when a place name cannot be resolved; the message can be shown to the student. */
export class PlaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlaceError";
  }
}

const FCT = "Federal Capital Territory";

/** Names of the 36 states and the Federal Capital Territory, sorted A–Z. */
export const NIGERIAN_STATE_NAMES: string[] = NIGERIAN_STATES.map((state) => state.name).sort(
  (a, b) => a.localeCompare(b, "en"),
);

// Case, surrounding or repeated whitespace, and hyphen-versus-space are the usual differences
// between what people type and the stored spelling ("Ibeju Lekki", "cross  river").
function placeKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, " ");
}

const statesByKey = new Map<string, NigerianStateRecord>(
  NIGERIAN_STATES.map((state) => [placeKey(state.name), state]),
);

function stateKey(name: string): string {
  const key = placeKey(name);
  const compact = key.replace(/[.\s]/g, "");
  return compact === "fct" || compact === "abuja" ? placeKey(FCT) : key;
}

function lookUp(name: string): NigerianStateRecord | undefined {
  return statesByKey.get(stateKey(name));
}

/**
 * Throws PlaceError("Invalid Nigeria State") for an empty/blank name; PlaceError(`"${name}" is
 * not a Nigerian state. Choose one from the list.`) for an unknown one. Ignores case and
 * surrounding whitespace; "fct", "f.c.t", "f c t", "abuja" (any case/spacing around) map to
 * Federal Capital Territory. Returns a copy, so callers may change it freely.
 */
export function findNigerianState(name: string): NigerianState {
  if (name.trim() === "") throw new PlaceError("Invalid Nigeria State");
  const state = lookUp(name);
  if (!state) {
    throw new PlaceError(`"${name.trim()}" is not a Nigerian state. Choose one from the list.`);
  }
  return {
    name: state.name,
    senatorialDistricts: [...state.senatorialDistricts],
    lgas: [...state.lgas],
  };
}

/** True when name is a state or the FCT, under the same matching rules as findNigerianState. */
export function isNigerianState(name: string): boolean {
  return lookUp(name) !== undefined;
}

/**
 * True when lga is one of the state's LGAs (case-insensitive, trimmed; a hyphen matches a
 * space). False, rather than an error, when the state itself is unknown.
 */
export function isLgaOf(stateName: string, lga: string): boolean {
  const state = lookUp(stateName);
  if (!state) return false;
  const key = placeKey(lga);
  return state.lgas.some((candidate) => placeKey(candidate) === key);
}
