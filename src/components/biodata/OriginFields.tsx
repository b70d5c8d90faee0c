import { useState } from "react";
import {
  findNigerianState,
  isNigerianState,
  NIGERIAN_STATE_NAMES,
} from "../../../common/places/nigeria.ts";
import { NIGERIA } from "../../../common/students/biodata-choices.ts";
import { FieldError, TextField } from "./fields.tsx";

/** Country, state and LGA of origin as the form holds them ("" when not chosen). */
export type Origin = { country: string; state: string; lga: string };

type Props = {
  countries: readonly string[];
  initial: Origin;
  errors: Record<string, string>;
};

type SelectProps = {
  name: string;
  label: string;
  value: string;
  options: readonly string[];
  disabled?: boolean;
  required?: boolean;
  error?: string;
  onChange(value: string): void;
};

function PlaceSelect({
  name,
  label,
  value,
  options,
  disabled,
  required,
  error,
  onChange,
}: SelectProps) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select
        id={name}
        name={name}
        value={value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${name}-error`}
        onChange={(event) => onChange(event.currentTarget.value)}
      >
        <option value="">--Select--</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

/**
 * The place of origin: for Nigeria, a state select and an LGA select that lists only that
 * state's LGAs; for any other country, free text. The API saves the three together.
 */
export function OriginFields({ countries, initial, errors }: Props) {
  const [origin, setOrigin] = useState(initial);
  const nigerian = origin.country === NIGERIA;
  const lgas =
    nigerian && isNigerianState(origin.state) ? findNigerianState(origin.state).lgas : [];

  return (
    <>
      <PlaceSelect
        name="country_origin"
        label="Country of origin"
        value={origin.country}
        options={countries}
        // A stored answer can be changed but not emptied: blank means "unchanged" to the API.
        required={initial.country !== ""}
        error={errors.country_origin}
        onChange={(country) => setOrigin({ country, state: "", lga: "" })}
      />
      {nigerian ? (
        <>
          <PlaceSelect
            name="state_origin"
            label="State of origin"
            value={origin.state}
            options={NIGERIAN_STATE_NAMES}
            required
            error={errors.state_origin}
            onChange={(state) => setOrigin({ ...origin, state, lga: "" })}
          />
          <PlaceSelect
            name="lga_origin"
            label="LGA of origin"
            value={origin.lga}
            options={lgas}
            disabled={lgas.length === 0}
            required={lgas.length > 0}
            error={errors.lga_origin}
            onChange={(lga) => setOrigin({ ...origin, lga })}
          />
        </>
      ) : origin.country ? (
        <>
          <TextField
            name="state_origin"
            label="State or region of origin"
            value={origin.state}
            maxLength={100}
            error={errors.state_origin}
            onChange={(event) => setOrigin({ ...origin, state: event.currentTarget.value })}
          />
          <TextField
            name="lga_origin"
            label="Local government or district of origin"
            value={origin.lga}
            maxLength={100}
            error={errors.lga_origin}
            onChange={(event) => setOrigin({ ...origin, lga: event.currentTarget.value })}
          />
        </>
      ) : null}
    </>
  );
}
