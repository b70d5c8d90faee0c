import { useEffect, useRef, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { TOAST_DURATION_MS } from "../lib/ui/toast-duration.ts";
import { PortalToaster } from "./PortalToaster.tsx";
import { BirthDateFields } from "../components/biodata/BirthDateFields.tsx";
import { ChoiceSelect, TextField } from "../components/biodata/fields.tsx";
import { OriginFields } from "../components/biodata/OriginFields.tsx";
import { PassportDropzone } from "../components/biodata/PassportDropzone.tsx";
import { ApiFailure } from "../lib/api/browser-api.client.ts";
import type { ResizedPhoto } from "../lib/images/resize-photo.client.ts";
import { MARITAL_STATUSES, RELIGIONS } from "../../common/students/biodata-choices.ts";
import { sendBiodata } from "../lib/students/send-biodata.client.ts";
import type { StudentRecord } from "../../common/students/student-record.ts";
import { rememberStudent } from "../lib/stores/student.ts";
import { refocus } from "../lib/ui/refocus.ts";

/** The parts of the student record the form shows. */
export type BiodataFormStudent = Pick<
  StudentRecord,
  | "id"
  | "surname"
  | "othername"
  | "email"
  | "phone"
  | "photo"
  | "marital_status"
  | "religion"
  | "dob"
  | "mob"
  | "yob"
  | "country_origin"
  | "state_origin"
  | "lga_origin"
>;

type Props = {
  student: BiodataFormStudent;
  /** ISO country names, sorted (passed in so the ISO package never ships to the browser). */
  countries: readonly string[];
  /** The registry locked the record: the form is shown read-only. */
  locked?: boolean;
  /** After a refused post without JavaScript: what was typed, and the server's word on each field. */
  typed?: Record<string, string>;
  errors?: Record<string, string>;
};

// Long enough to read the success toast before the page reloads with the new values.
const RELOAD_AFTER_MS = 1200;
// The page again, scrolled to the top where it says the update succeeded: a plain reload keeps
// the scroll at the button, with the message off screen on a phone.
const SAVED_PAGE = "/biodata?updated=1";

/**
 * Update Biodata: passport upload with progress, contact and personal details, origin. Before
 * hydration (or without JavaScript) it is a multipart form posted to the page, photo and all,
 * which the page server forwards to the API (decision 093); once hydrated, the photo is shrunk
 * here and sent with progress.
 */
export function BiodataForm({
  student: stored,
  countries,
  locked = false,
  typed = {},
  errors: refused = {},
}: Props) {
  // After a refusal the fields show what was typed, over the stored values.
  const number = (name: "dob" | "mob" | "yob") =>
    name in typed ? Number(typed[name]) || null : stored[name];
  const student = {
    ...stored,
    ...typed,
    dob: number("dob"),
    mob: number("mob"),
    yob: number("yob"),
  };
  const [photo, setPhoto] = useState<ResizedPhoto | null>(null);
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>(refused);
  // Where the link for a new phone number or e-mail went: stays on screen until acted on.
  const [linkSent, setLinkSent] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Refusals stay until closed (decision 061); once a try succeeds, the earlier ones are stale.
  const refusalToasts = useRef<(string | number)[]>([]);
  // Take the student to the first field the server refused (the toast says why as well).
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  // The form is disabled while it saves; after a refusal with no field to blame, focus returns
  // to Update Profile rather than being lost to the page.
  const submitButton = useRef<HTMLButtonElement>(null);
  const wasSaving = useRef(false);
  useEffect(() => {
    if (wasSaving.current && !saving) refocus(submitButton.current);
    wasSaving.current = saving;
  }, [saving]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    form.delete("photo");
    if (photo) form.set("photo", photo.blob, "passport.jpg");
    setSaving(true);
    setErrors({});
    setLinkSent(null);
    setProgress(0);
    const toastId = toast.loading("Updating Biodata...");
    try {
      const answer = await sendBiodata(student.id, form, setProgress);
      rememberStudent(answer.data);
      for (const id of refusalToasts.current) toast.dismiss(id);
      refusalToasts.current = [];
      if (answer.contact_change_pending) {
        // No reload: the student must read where the link went before the page changes.
        toast.success("Update successful", { id: toastId });
        setLinkSent(answer.message);
        const password = formRef.current?.elements.namedItem("current_password");
        if (password instanceof HTMLInputElement) password.value = "";
        setSaving(false);
        return;
      }
      toast.success("Update successful", { id: toastId });
      // The header, top bar and dashboard are rendered by the server: reload to show the new values.
      setTimeout(() => window.location.assign(SAVED_PAGE), RELOAD_AFTER_MS);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      toast.error(error.message, { id: toastId, duration: TOAST_DURATION_MS.error });
      refusalToasts.current.push(toastId);
      setErrors(error.fields);
      setSaving(false);
    }
  }

  const disabled = locked || saving;
  return (
    <form
      ref={formRef}
      className="card biodata-form"
      method="post"
      action="/biodata"
      encType="multipart/form-data"
      data-locked={locked || undefined}
      onSubmit={submit}
    >
      {!locked && <PortalToaster />}
      <fieldset disabled={disabled}>
        <legend className="visually-hidden">Your biodata</legend>
        <PassportDropzone
          current={student.photo}
          disabled={disabled}
          error={errors.photo}
          onChange={setPhoto}
        />
        <div className="grid">
          <TextField name="surname" label="Surname" defaultValue={student.surname} readOnly />
          <TextField
            name="othername"
            label="Other names"
            defaultValue={student.othername}
            readOnly
          />
          <TextField
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            required
            defaultValue={student.email}
            error={errors.email}
          />
          <TextField
            name="phone"
            label="Phone number"
            type="tel"
            autoComplete="tel"
            required
            defaultValue={student.phone}
            error={errors.phone}
          />
          {!locked && (
            <TextField
              name="current_password"
              label="Current password"
              type="password"
              autoComplete="current-password"
              maxLength={200}
              hint="Needed only to change your phone number or e-mail."
              error={errors.current_password}
            />
          )}
          <ChoiceSelect
            name="marital_status"
            label="Marital status"
            current={stored.marital_status}
            chosen={typed.marital_status}
            choices={MARITAL_STATUSES}
            error={errors.marital_status}
          />
          <ChoiceSelect
            name="religion"
            label="Religion"
            current={stored.religion}
            chosen={typed.religion}
            choices={RELIGIONS}
            error={errors.religion}
          />
        </div>
        <BirthDateFields student={student} errors={errors} />
        <div className="grid">
          <OriginFields
            countries={countries}
            initial={{
              country: student.country_origin ?? "",
              state: student.state_origin ?? "",
              lga: student.lga_origin ?? "",
            }}
            errors={errors}
          />
        </div>
        {saving && (
          <p className="upload-progress">
            <label htmlFor="upload-progress">
              {photo ? "Uploading photo and details" : "Saving"}
            </label>
            <progress id="upload-progress" max={1} value={progress}>
              {Math.round(progress * 100)}%
            </progress>
            <span aria-hidden="true">{Math.round(progress * 100)}%</span>
          </p>
        )}
        {linkSent && (
          <p className="alert alert-info" role="status">
            {linkSent}
          </p>
        )}
        {!locked && (
          <button type="submit" ref={submitButton}>
            {saving && <span className="spinner" aria-hidden="true" />}
            Update Profile
          </button>
        )}
      </fieldset>
    </form>
  );
}
