// The string-path file operations of @aibuddy/sandbox-node BEFORE the held-descriptor rewrite
// (commit 5f553a4), kept here ONLY as the benchmark's baseline: resolve a path with lstat/readlink
// per component, then open/list/rename it again by its full path string (the check-then-use
// pattern that a racing process can redirect). Same syscalls, same order, plain `fs` calls.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, opendir, readdir, readlink, rename, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const isInside = (parent, child) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** Old resolvePath: lexical check, then lstat (and readlink) one component at a time. */
export async function resolvePath(rootReal, input) {
  const start = resolve(rootReal, input === '' ? '.' : input);
  if (!isInside(rootReal, start)) throw new Error('outside');
  const walk = async (absInside, hops) => {
    const parts = relative(rootReal, absInside)
      .split(sep)
      .filter((p) => p !== '' && p !== '.');
    let cur = rootReal;
    for (let i = 0; i < parts.length; i++) {
      const next = join(cur, parts[i]);
      let st;
      try {
        st = await lstat(next);
      } catch (error) {
        if (error.code === 'ENOENT') return { real: join(next, ...parts.slice(i + 1)), exists: false };
        throw error;
      }
      if (!st.isSymbolicLink()) {
        cur = next;
        continue;
      }
      if (++hops.count > 40) throw new Error('loop');
      const target = resolve(cur, await readlink(next));
      if (!isInside(rootReal, target)) throw new Error('outside');
      const followed = await walk(target, hops);
      if (!followed.exists) return { real: join(followed.real, ...parts.slice(i + 1)), exists: false };
      cur = followed.real;
    }
    return { real: cur, exists: true };
  };
  return { rel: relative(rootReal, start) || '.', ...(await walk(start, { count: 0 })) };
}

/** Old readFile: resolve, lstat, open O_NOFOLLOW|O_NONBLOCK, fstat, read a 256 KiB chunk, split the window. */
export async function readFile(rootReal, path) {
  const target = await resolvePath(rootReal, path);
  const before = await lstat(target.real);
  if (!before.isFile()) throw new Error('not a file');
  const handle = await open(target.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (st.ino !== before.ino) throw new Error('changed');
    const buf = Buffer.allocUnsafe(256 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const lines = buf.subarray(0, bytesRead).toString('utf8').split('\n').slice(0, 2000);
    return { content: lines.join('\n'), size: st.size };
  } finally {
    await handle.close();
  }
}

/** Old ls: resolve, stat, readdir with types, sort, lstat each file for its size. */
export async function ls(rootReal, path) {
  const target = await resolvePath(rootReal, path);
  const dirents = await readdir(target.real, { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries = [];
  for (const d of dirents.slice(0, 1000)) {
    let size = 0;
    if (d.isFile() || d.isSymbolicLink()) size = (await lstat(join(target.real, d.name))).size;
    entries.push({ name: d.name, size });
  }
  return entries;
}

/** Old glob walk: opendir by path string, depth-first in name order, skip node_modules/.git. */
export async function glob(rootReal, path, regex, skipNodeModules = true) {
  const start = await resolvePath(rootReal, path);
  const files = [];
  const stack = [{ abs: start.real, rel: '' }];
  while (stack.length > 0) {
    const dir = stack.pop();
    const names = [];
    try {
      for await (const d of await opendir(dir.abs)) {
        if (d.isDirectory()) names.push({ name: d.name, dir: true });
        else if (d.isFile()) names.push({ name: d.name, dir: false });
      }
    } catch {
      continue;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs = [];
    for (const e of names) {
      const rel = dir.rel === '' ? e.name : `${dir.rel}/${e.name}`;
      if (e.dir) {
        if (e.name !== '.git' && !(skipNodeModules && e.name === 'node_modules'))
          subdirs.push({ abs: join(dir.abs, e.name), rel });
      } else if (regex.test(rel)) files.push(rel);
    }
    for (let k = subdirs.length - 1; k >= 0; k--) stack.push(subdirs[k]);
  }
  return files.sort();
}

/** Old writeFile: resolve, lstat, mkdir -p, lstat the folder, temp file (wx), write, fsync, rename, lstat. */
export async function writeFile(rootReal, path, content) {
  const target = await resolvePath(rootReal, path);
  let previous;
  try {
    previous = await lstat(target.real);
  } catch {
    previous = undefined;
  }
  const folder = dirname(target.real);
  await mkdir(folder, { recursive: true });
  await lstat(folder);
  const temp = join(folder, `.${basename(target.real)}.${randomBytes(6).toString('hex')}.aibuddy-tmp`);
  const handle = await open(temp, 'wx', previous ? previous.mode & 0o7777 : 0o666);
  let renamed = false;
  try {
    await handle.writeFile(Buffer.from(content));
    await handle.sync();
    await handle.close();
    if (previous) await chmod(temp, previous.mode & 0o7777);
    await rename(temp, target.real);
    renamed = true;
    return { size: content.length, mtimeMs: (await lstat(target.real)).mtimeMs };
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
}
