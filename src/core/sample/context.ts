import type { EntityIndex } from '../release/types.ts';
import type { SampleDoc } from './corpus.ts';
import type { Retriever } from './pool-retriever.ts';
import type { Reader } from './reader.ts';
import type { World } from './world.ts';

/** Everything the drafting, gauntlet and pooling stages read. */
export interface PipelineContext {
  world: World;
  docs: SampleDoc[];
  docById: Map<string, SampleDoc>;
  /** factKey -> ids of non-garbage docs that state it. */
  statedIn: Map<string, string[]>;
  entities: EntityIndex;
  targets: EntityIndex;
  /** Retrievers whose top-20 form the pool; the first one also serves the false-premise absence check. */
  retrievers: Retriever[];
  reader: Reader;
  /** Lines recurring in many docs (disclaimers, footers): a question about them is boilerplate. */
  boilerplateLines: string[];
}

export const GENERATOR_MODEL = 'sample-generator/1.0';
export const ADJUDICATOR_MODEL = 'sample-adjudicator/1.0';
export const POOL_JUDGE_MODEL = 'sample-pool-judge/1.0';
export const PIPELINE_VERSION = '1.1.0-sample';
export const FALSE_PREMISE_PIPELINE_VERSION = '1.0.0-sample';
