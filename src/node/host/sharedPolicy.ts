/**
 * The runner's and the MCP server's side of the one policy (src/core/sharedPolicy.ts): the file an editor published
 * into their state folder, read anew whenever it changed, so a setting changed in the editor applies to the next
 * call without restarting the agent.
 *
 * Fail closed: once a state folder has a policy file, a call is refused (POLICY_UNAVAILABLE) whenever that file
 * cannot be used — unreadable, not what an editor writes, or gone after it had been read. Without a file (an editor
 * never published here: a runner's own history folder, an editor too old to publish) the host runs on its flags.
 */
import { readFileSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { describeError, ToolError } from '../../core/errors';
import { POLICY_FILE_NAME, PolicyFileError, type PublishedPolicy, readPolicyFile } from '../../core/policy/sharedPolicy';

/** Case-insensitive where the platform's disks usually are. */
export const CASE_INSENSITIVE_PATHS = process.platform === 'win32' || process.platform === 'darwin';

export class SharedPolicyFile {
  readonly path: string;
  private cached: { readonly key: string; readonly policy: PublishedPolicy } | undefined;
  /** Set once a policy was read here: from then on a missing file is a failure, not "no editor". */
  private seen = false;

  constructor(
    stateDirectory: string,
    /** "MCP server" or "runner", for the messages. */
    readonly host: string,
  ) {
    this.path = nodePath.join(stateDirectory, POLICY_FILE_NAME);
  }

  /** The policy published now; undefined when none ever was. Throws ToolError POLICY_UNAVAILABLE when it cannot be used. */
  current(): PublishedPolicy | undefined {
    let key: string;
    try {
      // No file is the common case (no editor publishes here), and the call's answer: asked without an exception.
      const stat = statSync(this.path, { bigint: true, throwIfNoEntry: false });
      if (stat === undefined) {
        if (!this.seen) return undefined;
        this.cached = undefined;
        return this.refuse(`was removed after this ${this.host} had read it`);
      }
      if (!stat.isFile()) return this.refuse('is not a file');
      key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    } catch (error) {
      if (error instanceof ToolError) throw error;
      this.cached = undefined;
      return this.refuse(`cannot be read (${describeError(error)})`);
    }
    if (this.cached?.key === key) return this.cached.policy;
    this.cached = undefined;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      return this.refuse(`cannot be read (${describeError(error)})`);
    }
    try {
      const { policy } = readPolicyFile(text);
      this.seen = true;
      this.cached = { key, policy };
      return policy;
    } catch (error) {
      if (error instanceof PolicyFileError) return this.refuse(error.message);
      throw error;
    }
  }

  private refuse(why: string): never {
    this.seen = true;
    throw new ToolError(
      'POLICY_UNAVAILABLE',
      `The policy VS Code published for this workspace (${this.path}) ${why}, so this ${this.host} refuses every call rather than run without it. Ask the user to open the workspace in VS Code with Agent FS, which writes it anew.`,
      { path: this.path },
    );
  }
}
