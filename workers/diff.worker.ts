/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { ReleaseDiffSession } from '../src/core/release-diff/session.ts';

/** The release diff off the main thread: both releases read, checked against their pins and compared here. */
const session = new ReleaseDiffSession({ baseHref: self.location.href });

const api = {
  compare: session.compare.bind(session),
  cancel: session.cancel.bind(session),
  sharedTasks: session.sharedTasks.bind(session),
  sharedPredictions: session.sharedPredictions.bind(session),
};
export type DiffApi = typeof api;
Comlink.expose(api);
