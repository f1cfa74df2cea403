import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32, readZip, writeStoredZip } from '../../../../src/core/judge/zip.ts';

const hasCommand = (name: string): boolean => spawnSync(name, ['-v'], { stdio: 'ignore' }).status === 0;
const hasUnzip = hasCommand('unzip');
const hasZip = hasCommand('zip');
const workDir = mkdtempSync(path.join(tmpdir(), 'judge-zip-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const text = (data: Uint8Array): string => new TextDecoder().decode(data);

async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data.slice().buffer as ArrayBuffer])
    .stream()
    .pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A one-file zip with a deflated entry, built by hand (independent of our writer). */
async function deflatedZip(name: string, content: Uint8Array, declaredSize = content.length): Promise<Uint8Array> {
  const nameBytes = new TextEncoder().encode(name);
  const packed = await deflateRaw(content);
  const out = new Uint8Array(30 + nameBytes.length + packed.length + 46 + nameBytes.length + 22);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint16(4, 20, true);
  v.setUint16(8, 8, true);
  v.setUint32(14, crc32(content), true);
  v.setUint32(18, packed.length, true);
  v.setUint32(22, declaredSize, true);
  v.setUint16(26, nameBytes.length, true);
  out.set(nameBytes, 30);
  out.set(packed, 30 + nameBytes.length);
  const cd = 30 + nameBytes.length + packed.length;
  v.setUint32(cd, 0x02014b50, true);
  v.setUint16(cd + 4, 20, true);
  v.setUint16(cd + 6, 20, true);
  v.setUint16(cd + 10, 8, true);
  v.setUint32(cd + 16, crc32(content), true);
  v.setUint32(cd + 20, packed.length, true);
  v.setUint32(cd + 24, declaredSize, true);
  v.setUint16(cd + 28, nameBytes.length, true);
  out.set(nameBytes, cd + 46);
  const end = cd + 46 + nameBytes.length;
  v.setUint32(end, 0x06054b50, true);
  v.setUint16(end + 8, 1, true);
  v.setUint16(end + 10, 1, true);
  v.setUint32(end + 12, 46 + nameBytes.length, true);
  v.setUint32(end + 16, cd, true);
  return out;
}

describe('crc32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });
});

describe('stored zip writer and reader', () => {
  const files = [
    { path: 'llm_cache/ab/abc.json', data: '{"text": "x"}' },
    { path: 'dir/ünïcode ✓.txt', data: 'héllo' },
    { path: 'empty.txt', data: '' },
    { path: 'bin.dat', data: new Uint8Array([0, 255, 1, 254]) },
  ];

  it('round-trips names and bytes', async () => {
    const zip = writeStoredZip(files);
    const read = await readZip(zip);
    expect(read.map((f) => f.path)).toEqual(files.map((f) => f.path));
    expect(text(read[0]!.data)).toBe('{"text": "x"}');
    expect(text(read[1]!.data)).toBe('héllo');
    expect(read[2]!.data.length).toBe(0);
    expect([...read[3]!.data]).toEqual([0, 255, 1, 254]);
  });

  it('writes archives that unzip lists and tests as valid', () => {
    expect(hasUnzip, 'needs the unzip command (Debian: apt-get install -y unzip)').toBe(true);
    const zipPath = path.join(workDir, 'ours.zip');
    writeFileSync(zipPath, writeStoredZip(files));
    const listing = execFileSync('unzip', ['-l', zipPath], { encoding: 'utf8' });
    for (const file of files) expect(listing).toContain(file.path);
    expect(listing).toMatch(/4 files/);
    const check = spawnSync('unzip', ['-tq', zipPath], { encoding: 'utf8' });
    expect(check.status).toBe(0);
    const content = execFileSync('unzip', ['-p', zipPath, 'dir/ünïcode ✓.txt'], { encoding: 'utf8' });
    expect(content).toBe('héllo');
  });

  it('reads deflated archives made by the zip command', async () => {
    expect(hasZip, 'needs the zip command (Debian: apt-get install -y zip)').toBe(true);
    const dir = path.join(workDir, 'src');
    execFileSync('mkdir', ['-p', path.join(dir, 'ab')]);
    const body = JSON.stringify({ text: 'repeat '.repeat(500) });
    writeFileSync(path.join(dir, 'ab', 'file.json'), body);
    const zipPath = path.join(workDir, 'theirs.zip');
    execFileSync('zip', ['-q', '-r', '-9', zipPath, '.'], { cwd: dir });
    const read = await readZip(new Uint8Array(readFileSync(zipPath)));
    const entry = read.find((f) => f.path === 'ab/file.json');
    expect(entry).toBeDefined();
    expect(text(entry!.data)).toBe(body);
    expect(read.some((f) => f.path.endsWith('/'))).toBe(false);
  });

  it('reads a hand-built deflate entry', async () => {
    const content = new TextEncoder().encode('{"text": "deflated"}'.repeat(50));
    const read = await readZip(await deflatedZip('x.json', content));
    expect(text(read[0]!.data)).toBe(text(content));
  });

  it('refuses an entry that inflates past its declared size (zip bomb guard)', async () => {
    const content = new Uint8Array(10_000);
    await expect(readZip(await deflatedZip('bomb.bin', content, 100))).rejects.toThrow(
      /bomb\.bin inflates to more than its declared 100 bytes/,
    );
  });

  it('refuses archives over the limits', async () => {
    const zip = writeStoredZip(files);
    await expect(readZip(zip, { maxEntries: 2 })).rejects.toThrow(/4 entries, more than the 2 allowed/);
    await expect(readZip(zip, { maxEntryBytes: 5 })).rejects.toThrow(/llm_cache\/ab\/abc\.json is 13 bytes/);
  });

  it('detects damage', async () => {
    const zip = writeStoredZip([{ path: 'a.txt', data: 'hello world' }]);
    const flipped = zip.slice();
    flipped[30 + 'a.txt'.length] = 'H'.charCodeAt(0);
    await expect(readZip(flipped)).rejects.toThrow(/a\.txt fails its CRC-32 check/);
    await expect(readZip(zip.slice(0, zip.length - 10))).rejects.toThrow(/no end-of-central-directory/);
    await expect(readZip(new TextEncoder().encode('not a zip at all, just text'))).rejects.toThrow(/not a zip file/);
  });
});
