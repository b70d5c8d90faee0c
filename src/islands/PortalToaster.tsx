import { Toaster } from "sonner";
import { TOAST_DURATION_MS } from "../lib/ui/toast-duration.ts";

/**
 * Toasts as the spec places them: top-right, confirmations gone after 2 seconds. Islands pass
 * TOAST_DURATION_MS for notices and refusals, which stay until closed. One per page.
 */
export function PortalToaster() {
  return <Toaster position="top-right" duration={TOAST_DURATION_MS.success} richColors closeButton />;
}
