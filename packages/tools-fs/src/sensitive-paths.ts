import type { ImpactAssessment } from '@aibuddy/registry';

/**
 * Files whose change alters what later commands do outside the agent's view: git hooks run code on
 * every commit or push, and `.git/config` decides hooks paths and where pushes go. Changing them
 * is high impact even though it is "just a file write".
 */
export function sensitivePathImpact(path: string, verb: 'Writing' | 'Editing'): ImpactAssessment | undefined {
  const normalized = path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (/(^|\/)\.git\/(hooks\/|config$)/.test(normalized)) {
    return {
      target: path,
      scope: 'repository configuration (runs on later git commands)',
      impact: `${verb} ${path} changes what git runs or where it pushes; a hook runs code on every later commit or push.`,
    };
  }
  return undefined;
}
