import { useEffect, useState, type DragEvent } from "react";
import {
  PHOTO_TYPES,
  PhotoNotUsable,
  resizePhoto,
  type ResizedPhoto,
} from "../../lib/images/resize-photo.client.ts";
import { PASSPORT_MAX_BYTES } from "../../../common/http/body-limits.ts";
import { FieldError } from "./fields.tsx";

const FALLBACK = "/images/default-passport.svg";

type Props = {
  /** The stored photo's URL, shown until a new one is chosen. */
  current: string | null;
  disabled: boolean;
  /** The server's refusal of the last upload, if any. */
  error?: string;
  onChange(photo: ResizedPhoto | null): void;
};

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Larger originals are refused before decoding: a cheap phone runs out of memory decoding one.
 * Camera photos are a few MB; what is sent after shrinking is far below the server's 5 MB.
 */
const LARGEST_PHOTO_TO_PREPARE = 20 * 1024 * 1024;

// Without scripts the photo goes as chosen (decision 093): say so, with the server's limit.
const HINT_WITHOUT_SCRIPTS = `Choose a JPEG, PNG or WebP photo of at most ${megabytes(PASSPORT_MAX_BYTES)}. It is sent as it is, so on a slow connection a large photo can take a minute or more to go: wait for the page to come back.`;
const HINT_WITH_SCRIPTS =
  "Drop a photo here or choose one (JPEG, PNG or WebP). It is made smaller before it is sent.";

/**
 * The passport upload: a real file input (keyboard and screen-reader operable) inside an area
 * that also takes a dropped file. The chosen photo is shrunk here and previewed before upload.
 */
export function PassportDropzone({ current, disabled, error, onChange }: Props) {
  const [preview, setPreview] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // False in the server's HTML, which is all a browser without scripts ever shows.
  const [shrinksPhotos, setShrinksPhotos] = useState(false);
  useEffect(() => setShrinksPhotos(true), []);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  async function take(file: File | undefined) {
    setProblem(null);
    if (!file) return;
    if (file.size > LARGEST_PHOTO_TO_PREPARE) {
      setProblem(
        `That photo is ${megabytes(file.size)}, too large to prepare on this device. Choose a photo under ${megabytes(LARGEST_PHOTO_TO_PREPARE)}, or take one with a lower camera setting.`,
      );
      setPreview(null);
      setNote(null);
      onChange(null);
      return;
    }
    try {
      const photo = await resizePhoto(file);
      setPreview(URL.createObjectURL(photo.blob));
      setNote(
        `Ready to upload: ${photo.width}×${photo.height} pixels, ${kilobytes(photo.blob.size)} (chosen file ${kilobytes(file.size)}).`,
      );
      onChange(photo);
    } catch (thrown) {
      if (!(thrown instanceof PhotoNotUsable)) throw thrown;
      setProblem(thrown.message);
      setPreview(null);
      setNote(null);
      onChange(null);
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!disabled) void take(event.dataTransfer.files[0]);
  }

  const message = problem ?? error;
  return (
    <div
      className="dropzone"
      data-dragging={dragging || undefined}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <img
        className="dropzone-preview"
        src={preview ?? current ?? FALLBACK}
        alt={preview ? "Preview of the new passport photo" : "Your current passport photo"}
        width={96}
        height={115}
        onError={(event) => {
          if (!event.currentTarget.src.endsWith(FALLBACK)) event.currentTarget.src = FALLBACK;
        }}
      />
      <div className="dropzone-body">
        <label htmlFor="photo">Passport photo</label>
        <input
          id="photo"
          name="photo"
          type="file"
          accept={PHOTO_TYPES.join(",")}
          aria-describedby="photo-hint photo-note photo-error"
          aria-invalid={message ? true : undefined}
          onChange={(event) => void take(event.currentTarget.files?.[0])}
        />
        <p className="field-hint" id="photo-hint">
          {shrinksPhotos ? HINT_WITH_SCRIPTS : HINT_WITHOUT_SCRIPTS}
        </p>
        <p className="field-hint" id="photo-note" aria-live="polite">
          {note}
        </p>
        <FieldError id="photo-error" message={message} />
      </div>
    </div>
  );
}
