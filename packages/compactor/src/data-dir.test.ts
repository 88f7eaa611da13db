import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDirInWorkspace, defaultDataDir, isDataDirInWorkspace, workspaceId } from './data-dir.js';

const root = mkdtempSync(join(tmpdir(), 'data-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('data dir rule', () => {
  it('ids a workspace by its name and real path: stable, and distinct for two folders of one name', () => {
    const a = join(root, 'a', 'my project');
    const b = join(root, 'b', 'my project');
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    symlinkSync(a, join(root, 'link'));
    expect(workspaceId(a)).toMatch(/^my_project-[0-9a-f]{12}$/);
    expect(workspaceId(a)).toBe(workspaceId(a));
    expect(workspaceId(join(root, 'link'))).toBe(workspaceId(a));
    expect(workspaceId(b)).not.toBe(workspaceId(a));
  });

  it('puts the default outside the workspace, under XDG_STATE_HOME when it is absolute', () => {
    const ws = join(root, 'a', 'my project');
    expect(defaultDataDir(ws, { XDG_STATE_HOME: '/state' })).toBe(`/state/aibuddy/${workspaceId(ws)}`);
    expect(defaultDataDir(ws, { XDG_STATE_HOME: 'relative' })).toMatch(/\/\.local\/state\/aibuddy\/my_project-/);
    expect(isDataDirInWorkspace(defaultDataDir(ws, { XDG_STATE_HOME: '/state' }), ws)).toBe(false);
  });

  it('sees a data dir inside the workspace by path and through a link', () => {
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'state'), { recursive: true });
    symlinkSync(join(ws, 'state'), join(root, 'outside-looking'));
    expect(isDataDirInWorkspace(join(ws, 'state'), ws)).toBe(true);
    expect(isDataDirInWorkspace(join(root, 'outside-looking'), ws)).toBe(true);
    expect(isDataDirInWorkspace(join(root, 'elsewhere'), ws)).toBe(false);
    expect(dataDirInWorkspace(join(ws, 'state', 'x'), ws)).toBe('state/x');
    expect(dataDirInWorkspace(join(root, 'elsewhere'), ws)).toBeUndefined();
    expect(dataDirInWorkspace(ws, ws)).toBeUndefined();
  });
});
