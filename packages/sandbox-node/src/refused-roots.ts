import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * System folders that are never a workspace, nor is anything below them: the operating system
 * itself and kernel interfaces. A workspace here would hand the model the host.
 */
export const SYSTEM_TREES: readonly string[] = [
  '/etc',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
];

/**
 * Folders refused as the workspace root themselves, while project folders below them stay allowed
 * (`/usr/src/app` is the usual working folder of Node container images, `/srv/site`, `/opt/app`,
 * `/root/project` and `/var/www` are ordinary project locations).
 */
export const SYSTEM_FOLDERS: readonly string[] = [
  '/',
  '/usr',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libexec',
  '/usr/include',
  '/usr/share',
  '/usr/local',
  '/usr/local/bin',
  '/usr/local/lib',
  '/usr/src',
  '/var',
  '/var/lib',
  '/var/log',
  '/var/tmp',
  '/var/cache',
  '/var/spool',
  '/var/run',
  '/run',
  '/tmp',
  '/opt',
  '/srv',
  '/root',
  '/home',
  '/mnt',
  '/media',
  '/snap',
];

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Why a folder may not be a workspace root, or undefined when it may: `/`, the home folder itself,
 * a system folder, or anything inside a system tree. Both the given path and its real path are
 * compared with both the listed folders and their real paths (`/bin` is `/usr/bin` on merged-/usr
 * systems, `/var/run` is `/run`).
 */
export function refusedRoot(given: string, real: string): string | undefined {
  const candidates = [...new Set([resolve(given), real])];
  const home = process.env.HOME && process.env.HOME !== '' ? process.env.HOME : homedir();
  const homes = home ? new Set([resolve(home), realOrSelf(home)]) : new Set<string>();
  for (const candidate of candidates) {
    if (homes.has(candidate))
      return `it is the home folder itself (${candidate}), which holds keys, shell start-up files and credentials`;
    for (const folder of SYSTEM_FOLDERS) {
      if (candidate === folder || candidate === realOrSelf(folder)) {
        return folder === '/' ? 'it is the file system root "/"' : `it is the system folder ${folder}`;
      }
    }
    for (const tree of SYSTEM_TREES) {
      if (inside(tree, candidate) || inside(realOrSelf(tree), candidate)) return `it is inside the system folder ${tree}`;
    }
  }
  return undefined;
}
