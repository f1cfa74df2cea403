/**
 * True for a plain left click: the app then handles the link itself. Ctrl/Cmd/Shift/Alt-clicks
 * and other buttons are left to the browser (new tab, new window, download), as links should be.
 */
export function isPlainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey && !e.defaultPrevented;
}

/** An onclick for an in-app link: plain clicks run `go` instead of loading the page. */
export function inApp(go: () => void): (e: MouseEvent) => void {
  return (e) => {
    if (!isPlainClick(e)) return;
    e.preventDefault();
    go();
  };
}
