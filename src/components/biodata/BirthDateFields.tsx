import type { StudentRecord } from "../../../common/students/student-record.ts";
import { TextField } from "./fields.tsx";

type Props = {
  student: Pick<StudentRecord, "dob" | "mob" | "yob">;
  errors: Record<string, string>;
};

const text = (value: number | null) => (value === null ? "" : String(value));

/** Day, month and year of birth as numbers; the API checks that they make a real date. */
export function BirthDateFields({ student, errors }: Props) {
  // A stored date can be changed but not emptied: blank means "unchanged" to the API.
  const required = student.dob !== null && student.mob !== null && student.yob !== null;
  const parts = [
    { name: "dob", label: "Day", min: 1, max: 31, value: student.dob },
    { name: "mob", label: "Month", min: 1, max: 12, value: student.mob },
    { name: "yob", label: "Year", min: 1900, max: new Date().getFullYear(), value: student.yob },
  ];
  return (
    <fieldset className="birth-date">
      <legend>Date of birth</legend>
      <div className="grid">
        {parts.map(({ name, label, min, max, value }) => (
          <TextField
            key={name}
            name={name}
            label={label}
            type="number"
            inputMode="numeric"
            min={min}
            max={max}
            required={required}
            defaultValue={text(value)}
            error={errors[name]}
          />
        ))}
      </div>
    </fieldset>
  );
}
