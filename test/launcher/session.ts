/**
 * One launch: temp folders, a VS Code server, a headless Chromium window on it, a hard timeout, and a cleanup that
 * runs whatever happens (also on Ctrl-C). On success the temp folders go; on failure they stay for inspection.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type HostSpec } from './hosts';
import {
  editorUrl,
  openEditor,
  startServer,
  tempDir,
  type Editor,
  type EditorOptions,
  type OpenOptions,
  type Server,
  type Target,
} from './launch';

const cleanups = new Set<() => Promise<void>>();
let interrupted = false;

/** Ends every open launch on Ctrl-C or SIGTERM, then exits 130 / 143. */
export function cleanUpOnSignals(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      interrupted = true;
      process.stdout.write(`\n[host] ${signal}: closing the editor and the server\n`);
      void Promise.allSettled([...cleanups].map((cleanup) => cleanup())).then(() => process.exit(code));
    });
  }
}

export interface LaunchContext {
  readonly server: Server;
  readonly editor: Editor;
  /** The launch's own temp folder (state, workspace, anything the body wants to keep there). */
  readonly dir: string;
  readonly url: string;
}

interface Prepared {
  readonly target: Target;
  readonly env?: Record<string, string>;
  readonly extensionDevelopmentPath?: string;
  /** Ends what the preparation started, before the launch's folder is removed. */
  readonly stop?: () => Promise<void>;
}

export interface LaunchSpec {
  readonly host: HostSpec;
  readonly label: string;
  /**
   * Made under the launch's temp folder before the server starts; returns what the window opens, and may name the
   * development extension when it lives in that folder, and what to stop with the launch (a process it started).
   */
  readonly prepare: (dir: string) => Prepared | Promise<Prepared>;
  readonly editor: Omit<EditorOptions, 'target'>;
  readonly open?: OpenOptions;
  /** Workspace trust on (the default in VS Code) or off (`--disable-workspace-trust`). */
  readonly trust: boolean;
  /** More arguments for the server (the locale launch's `--locale`). */
  readonly serverArgs?: readonly string[];
  readonly timeoutMs: number;
  readonly keep?: boolean;
}

class TimeoutError extends Error {}

/**
 * Runs `body` in a fresh launch; returns its value, or throws its error or a TimeoutError. The temp folders are
 * removed when the body returned a value that `isSuccess` accepts.
 */
export async function withLaunch<T>(
  spec: LaunchSpec,
  body: (launch: LaunchContext) => Promise<T>,
  isSuccess: (value: T) => boolean = () => true,
): Promise<T> {
  // Short prefix: the server puts unix sockets under TMPDIR, and their paths are limited to 107 bytes.
  const temp = tempDir('agentfs-it-');
  const tmp = path.join(temp.path, 't');
  fs.mkdirSync(tmp);
  let server: Server | undefined;
  let editor: Editor | undefined;
  let prepared: Prepared | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await editor?.close().catch(() => undefined);
    await server?.stop();
    await prepared?.stop?.();
  };
  cleanups.add(close);
  let timer: NodeJS.Timeout | undefined;
  let succeeded = false;
  try {
    const ready = await spec.prepare(temp.path);
    prepared = ready;
    const work = (async () => {
      server = await startServer({
        host: spec.host,
        stateDir: path.join(temp.path, 'state'),
        // The server and the extension host leave sockets in TMPDIR: keep them inside the launch's folder.
        env: { TMPDIR: tmp, ...ready.env },
        extraArgs: [...(spec.trust ? [] : ['--disable-workspace-trust']), ...(spec.serverArgs ?? [])],
      });
      const url = editorUrl(server, {
        target: ready.target,
        ...spec.editor,
        ...(ready.extensionDevelopmentPath === undefined ? {} : { extensionDevelopmentPath: ready.extensionDevelopmentPath }),
      });
      editor = await openEditor(url, spec.open);
      return body({ server, editor, dir: temp.path, url });
    })();
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new TimeoutError(`${spec.label}: no result within ${Math.round(spec.timeoutMs / 1000)} s`)),
        spec.timeoutMs,
      );
    });
    // A body that fails after the timeout won must not surface as an unhandled rejection.
    work.catch(() => undefined);
    const value = await Promise.race([work, timeout]);
    succeeded = isSuccess(value);
    return value;
  } catch (error) {
    if (server && !interrupted) {
      process.stdout.write(`[${spec.label}] server output (last 3000 characters):\n${server.output().slice(-3000)}\n`);
    }
    throw error;
  } finally {
    clearTimeout(timer);
    await close();
    cleanups.delete(close);
    if (succeeded && !spec.keep) temp.remove();
    else process.stdout.write(`[${spec.label}] kept ${temp.path} for inspection\n`);
  }
}
