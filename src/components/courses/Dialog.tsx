import { useEffect, useRef, type ReactNode } from "react";

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape and makes the page
 * behind inert, so the picker needs no dialog library.
 */
export function Dialog(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `dialog-${props.title.toLowerCase().replace(/\W+/g, "-")}`;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} className="picker-dialog" aria-labelledby={titleId} onClose={props.onClose}>
      <h2 id={titleId}>{props.title}</h2>
      {props.open && props.children}
    </dialog>
  );
}
