import type { InputHTMLAttributes } from "react";

/** A field's error message, always present so aria-describedby can point at it. */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  return (
    <p className="field-error" id={id}>
      {message}
    </p>
  );
}

type TextFieldProps = { name: string; label: string; error?: string; hint?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "name" | "id"
>;

/** A labelled input with an optional hint and its error below it. */
export function TextField({ name, label, error, hint, ...input }: TextFieldProps) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint ? `${name}-hint ${name}-error` : `${name}-error`}
        {...input}
      />
      {hint && (
        <p className="field-hint" id={`${name}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

type ChoiceSelectProps = {
  name: string;
  label: string;
  /** The stored value: the first option shows it (spec), or --Select-- when there is none. */
  current: string | null;
  choices: readonly string[];
  /** What the student chose before a refusal, shown again. */
  chosen?: string;
  error?: string;
};

/**
 * A select whose first option shows the current value and sends "", which the API reads as
 * "leave unchanged"; choosing another option sends that option.
 */
export function ChoiceSelect({
  name,
  label,
  current,
  choices,
  chosen = "",
  error,
}: ChoiceSelectProps) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select
        id={name}
        name={name}
        defaultValue={chosen}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${name}-error`}
      >
        <option value="">{current || "--Select--"}</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}
