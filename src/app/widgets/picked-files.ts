export interface PickedFile {
  path: string;
  file: File;
}

/** Files of an <input type=file>, with their folder-relative paths when a folder was picked. */
export function filesFromInput(input: HTMLInputElement): PickedFile[] {
  return [...(input.files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** Dropped files and folders; folders are walked recursively. */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = [...data.items].map((i) => i.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
  if (entries.length === 0) return [...data.files].map((file) => ({ path: file.name, file }));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, out);
  return out;
}

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  const path = entry.fullPath.replace(/^\//, '');
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, file });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, out);
  }
}
