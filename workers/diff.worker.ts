/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { ReleaseDiffSession } from '../src/core/release-diff/session.ts';

/** The release diff off the main thread: both releases read, checked against their pins and compared here. */
const session = new ReleaseDiffSession({ baseHref: self.location.href });
export type DiffApi = ReleaseDiffSession;
Comlink.expose(session);
