/**
 * The static-embedding model as ONNX (written with onnx-proto, ONNX IR 8, opset 14): the output
 * last_hidden_state is the embedding row of each input id. fp32 is one Gather; q8 stores int8 rows
 * with one float scale per row and dequantises the gathered rows.
 */
import onnxProto from 'onnx-proto';
import type { onnx as OnnxTypes } from 'onnx-proto';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT8 = onnx.TensorProto.DataType.INT8;
const INT64 = onnx.TensorProto.DataType.INT64;

function tokenInput(name: string): OnnxTypes.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: { elemType: INT64, shape: { dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }] } },
    },
  };
}

function hiddenOutput(dim: number): OnnxTypes.IValueInfoProto {
  return {
    name: 'last_hidden_state',
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: { dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }, { dimValue: dim }] },
      },
    },
  };
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function encodeModel(graph: OnnxTypes.IGraphProto): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 14 }],
    producerName: 'epstein-bench-explorer',
    producerVersion: '1',
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

const INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'].map(tokenInput);

export function fp32ModelBytes(table: Float32Array, vocabSize: number, dim: number): Uint8Array {
  if (table.length !== vocabSize * dim)
    throw new Error(`table has ${table.length} values, expected ${vocabSize * dim}`);
  return encodeModel({
    name: 'static_embeddings',
    input: INPUTS,
    output: [hiddenOutput(dim)],
    initializer: [{ name: 'embeddings', dataType: FLOAT, dims: [vocabSize, dim], rawData: bytesOf(table) }],
    node: [
      {
        opType: 'Gather',
        input: ['embeddings', 'input_ids'],
        output: ['last_hidden_state'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
    ],
  });
}

export interface QuantizedTable {
  rows: Int8Array;
  scales: Float32Array;
}

/** Symmetric per-row int8: value ~= rows[t, d] * scales[t]. */
export function quantizeRows(table: Float32Array, vocabSize: number, dim: number): QuantizedTable {
  const rows = new Int8Array(vocabSize * dim);
  const scales = new Float32Array(vocabSize);
  for (let t = 0; t < vocabSize; t++) {
    let maxAbs = 0;
    for (let d = 0; d < dim; d++) maxAbs = Math.max(maxAbs, Math.abs(table[t * dim + d]!));
    const scale = Math.fround(maxAbs / 127);
    scales[t] = scale;
    if (scale === 0) continue;
    for (let d = 0; d < dim; d++)
      rows[t * dim + d] = Math.max(-127, Math.min(127, Math.round(table[t * dim + d]! / scale)));
  }
  return { rows, scales };
}

export function q8ModelBytes(table: Float32Array, vocabSize: number, dim: number): Uint8Array {
  const { rows, scales } = quantizeRows(table, vocabSize, dim);
  const int = onnx.AttributeProto.AttributeType.INT;
  return encodeModel({
    name: 'static_embeddings_q8',
    input: INPUTS,
    output: [hiddenOutput(dim)],
    initializer: [
      { name: 'embeddings_int8', dataType: INT8, dims: [vocabSize, dim], rawData: bytesOf(rows) },
      { name: 'row_scales', dataType: FLOAT, dims: [vocabSize], rawData: bytesOf(scales) },
      { name: 'last_axis', dataType: INT64, dims: [1], int64Data: [-1] },
    ],
    node: [
      {
        opType: 'Gather',
        input: ['embeddings_int8', 'input_ids'],
        output: ['gathered_int8'],
        attribute: [{ name: 'axis', type: int, i: 0 }],
      },
      {
        opType: 'Cast',
        input: ['gathered_int8'],
        output: ['gathered'],
        attribute: [{ name: 'to', type: int, i: FLOAT }],
      },
      {
        opType: 'Gather',
        input: ['row_scales', 'input_ids'],
        output: ['gathered_scales'],
        attribute: [{ name: 'axis', type: int, i: 0 }],
      },
      { opType: 'Unsqueeze', input: ['gathered_scales', 'last_axis'], output: ['scales_column'] },
      { opType: 'Mul', input: ['gathered', 'scales_column'], output: ['last_hidden_state'] },
    ],
  });
}
