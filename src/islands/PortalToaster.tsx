import { Toaster } from "sonner";

/** Toasts as the spec places them: top-right, gone after 2 seconds. One per page. */
export function PortalToaster() {
  return <Toaster position="top-right" duration={2000} richColors closeButton />;
}
