import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Host folders a command needs to run programs, bound read-only. Nothing else of the host is
 * mounted: the home folder, /var, /srv, /mnt, /media and the root's siblings simply do not exist
 * inside, and neither does any unix socket of the host (those live under /run, /tmp, /var).
 */
export const SYSTEM_READ_ONLY = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'] as const;

/**
 * Files under /etc that only root should read. Inside, a host root is still uid 0 (without
 * capabilities, but as the owner the mode bits let it read), so these are masked by /dev/null.
 */
export const ETC_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/security/opasswd',
] as const;

/** Folders under /etc that only root should read; masked by an empty tmpfs. */
export const ETC_SECRET_DIRS = ['/etc/sudoers.d', '/etc/ssl/private'] as const;

/** What bubblewrap can do here, probed once (see `isolation.ts`). */
export interface BubblewrapFeatures {
  /** `--unshare-user` works (not possible when bwrap is setuid, or user namespaces are off). */
  userNamespace: boolean;
  /** `--disable-userns` is supported (bubblewrap ≥ 0.8): the command cannot make a namespace of its own. */
  disableUserns: boolean;
}

/** Inputs of {@link bubblewrapArgs}. */
export interface BubblewrapLayout {
  /** Real path of the workspace root, bound read-write. */
  rootReal: string;
  /** Real path of the working folder (inside the root). */
  cwdReal: string;
  /** Extra host paths bound read-only (for example a toolchain outside /usr). */
  readOnlyPaths?: readonly string[];
  /** The host home folder: replaced by an empty, private tmpfs so tools that want `$HOME` can write. */
  home?: string | undefined;
  /** Paths inside the root to bind read-only again on top (e.g. `.git/hooks`). */
  readOnlyInRoot?: readonly string[];
}

function kindOf(path: string): 'dir' | 'file' | 'symlink' | undefined {
  try {
    const stat = lstatSync(path);
    return stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** The capability and namespace part: no capabilities, whether the host runs as root or not. */
export function privilegeArgs(features: BubblewrapFeatures): string[] {
  const args: string[] = [];
  // A user namespace makes every capability relative to it; `--disable-userns` stops the command
  // from creating a nested one (where it would be "root" again). `--cap-drop ALL` is what actually
  // empties CapEff when bwrap runs as root: a user namespace alone keeps all of root's capabilities
  // and `mount -o remount,rw /` succeeds (verified with bubblewrap 0.8 as root).
  if (features.userNamespace) {
    args.push('--unshare-user');
    if (features.disableUserns) args.push('--disable-userns');
  }
  args.push('--cap-drop', 'ALL');
  args.push('--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  // No `--new-session`: the command is already started in a new session by Node (`detached`),
  // so it has no controlling terminal to inject keystrokes into, and staying in our process
  // group is what lets SIGTERM reach the command itself during the grace.
  args.push('--die-with-parent');
  return args;
}

/**
 * The mount part: system folders read-only, a private /tmp, /var/tmp, /run and home, a minimal
 * /dev, a fresh /proc, the workspace read-write at its own path, and the given paths inside the
 * workspace read-only on top.
 */
export function mountArgs(layout: BubblewrapLayout): string[] {
  const args: string[] = [];
  for (const path of SYSTEM_READ_ONLY) {
    const kind = kindOf(path);
    // Merged-/usr systems have /bin -> usr/bin: recreate the link rather than binding its target twice.
    if (kind === 'symlink') args.push('--symlink', readlinkSync(path), path);
    else if (kind === 'dir') args.push('--ro-bind', path, path);
  }
  for (const secret of ETC_SECRETS) if (kindOf(secret) === 'file') args.push('--ro-bind', '/dev/null', secret);
  for (const secret of ETC_SECRET_DIRS) if (kindOf(secret) === 'dir') args.push('--tmpfs', secret, '--remount-ro', secret);
  args.push('--dev', '/dev', '--proc', '/proc');
  args.push('--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', '/run', '--symlink', '../run', '/var/run');
  const home = layout.home;
  if (home !== undefined && home.startsWith('/') && home !== '/' && !isSystemPath(home)) args.push('--tmpfs', home);
  for (const path of layout.readOnlyPaths ?? []) {
    if (kindOf(path) !== undefined) args.push('--ro-bind', path, path);
  }
  args.push('--bind', layout.rootReal, layout.rootReal);
  for (const rel of layout.readOnlyInRoot ?? []) {
    const abs = join(layout.rootReal, rel);
    const kind = kindOf(abs);
    if (kind === 'dir' || kind === 'file') args.push('--ro-bind', abs, abs);
  }
  args.push('--chdir', layout.cwdReal);
  return args;
}

function isSystemPath(path: string): boolean {
  return SYSTEM_READ_ONLY.some((sys) => path === sys || path.startsWith(`${sys}/`));
}

/** The folder Node itself was installed in, when it is not under /usr (e.g. nvm's), so `node` runs inside. */
export function nodeInstallPrefix(): string | undefined {
  const prefix = dirname(dirname(process.execPath));
  return isSystemPath(prefix) || prefix === '/' ? undefined : prefix;
}

/** The whole bubblewrap command line up to (not including) `--` and the command. */
export function bubblewrapArgs(features: BubblewrapFeatures, layout: BubblewrapLayout): string[] {
  return [...privilegeArgs(features), ...mountArgs(layout)];
}
