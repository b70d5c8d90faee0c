import { useEffect, useState, type DragEvent } from "react";
import {
  PHOTO_TYPES,
  PhotoNotUsable,
  resizePhoto,
  type ResizedPhoto,
} from "../../lib/images/resize-photo.ts";
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

/**
 * The passport upload: a real file input (keyboard and screen-reader operable) inside an area
 * that also takes a dropped file. The chosen photo is shrunk here and previewed before upload.
 */
export function PassportDropzone({ current, disabled, error, onChange }: Props) {
  const [preview, setPreview] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  async function take(file: File | undefined) {
    setProblem(null);
    if (!file) return;
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
          Drop a photo here or choose one (JPEG, PNG or WebP). It is made smaller before it is sent.
        </p>
        <p className="field-hint" id="photo-note" aria-live="polite">
          {note}
        </p>
        <FieldError id="photo-error" message={message} />
      </div>
    </div>
  );
}
