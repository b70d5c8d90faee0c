import { ApiFailure, goToSignIn } from "../api/browser-api.client.ts";
import type { StudentRecord } from "../../../common/students/student-record.ts";

/**
 * What PATCH /student/biodata-update/{id} answers on success. With `contact_change_pending`
 * the new phone number or e-mail waits for a mailed link, and `message` says where it went.
 */
export type BiodataUpdated = {
  status: "success";
  message: string;
  data: StudentRecord;
  contact_change_pending: boolean;
};

type ErrorBody = { error?: { message?: string; fields?: Record<string, string> } } | null;

const CONNECTION_LOST = "We could not reach the portal. Check your connection and try again.";
const TIMEOUT_MS = 120_000;

/**
 * Sends the biodata form through the proxy like apiRequest does (cookie session, a 401 ends
 * it and goes to sign-in), but with XMLHttpRequest: fetch() reports no upload progress, and
 * on a slow connection the student should see the photo going up. `onProgress` gets 0–1.
 */
export function sendBiodata(
  studentId: number,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<BiodataUpdated> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PATCH", `/api/student/biodata-update/${studentId}`);
    request.setRequestHeader("accept", "application/json");
    request.responseType = "json";
    request.timeout = TIMEOUT_MS;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body = request.response as ErrorBody | BiodataUpdated;
      if (request.status === 401) {
        goToSignIn();
        reject(new ApiFailure(401, "Your session has ended. Please sign in again."));
      } else if (request.status >= 200 && request.status < 300) {
        resolve(body as BiodataUpdated);
      } else {
        const error = (body as ErrorBody)?.error;
        const message =
          error?.message ?? "The portal could not save your biodata. Please try again.";
        reject(new ApiFailure(request.status, message, error?.fields));
      }
    };
    request.onerror = request.ontimeout = () => reject(new ApiFailure(0, CONNECTION_LOST));
    request.send(form);
  });
}
