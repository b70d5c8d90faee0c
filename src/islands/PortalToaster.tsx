import { Toaster } from "sonner";
import { TOAST_DURATION_MS } from "../lib/ui/toast-duration.ts";

// Below the shell's top bar (global.css), so a toast never covers Profile, Logout or Appearance.
const BELOW_TOP_BAR = { top: "var(--toasts-top)" };

/**
 * Toasts as the spec places them: top-right, confirmations gone after 2 seconds. Islands pass
 * TOAST_DURATION_MS for notices and refusals, which stay until closed. One per page.
 */
export function PortalToaster() {
  return (
    <Toaster
      position="top-right"
      offset={BELOW_TOP_BAR}
      mobileOffset={BELOW_TOP_BAR}
      duration={TOAST_DURATION_MS.success}
      richColors
      closeButton
    />
  );
}
