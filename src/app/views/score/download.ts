/** Saves bytes or text as a file download (the name is ours, never taken from uploaded data). */
export function download(name: string, data: string | Uint8Array | Blob, type: string): void {
  const part: BlobPart = typeof data === 'string' || data instanceof Blob ? data : (data as Uint8Array<ArrayBuffer>);
  const url = URL.createObjectURL(new Blob([part], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function percent(x: number, digits = 1): string {
  return `${(x * 100).toFixed(digits)}%`;
}
