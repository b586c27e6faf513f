/** The name of a `.proto` file and the files it imports, as its FileDescriptorProto says. */
export interface FileDescriptorImports {
  name: string;
  dependencies: string[];
}

/**
 * Reads `name` (field 1) and `dependency` (field 3) of a serialized
 * `google.protobuf.FileDescriptorProto`, skipping every other field: what server reflection
 * needs to ask for the files a descriptor imports. Throws on bytes that are not protobuf.
 */
export function readFileDescriptorImports(bytes: Uint8Array): FileDescriptorImports {
  const out: FileDescriptorImports = { name: '', dependencies: [] };
  const decoder = new TextDecoder();
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (pos >= bytes.length) throw new Error('truncated varint in a file descriptor');
      const b = bytes[pos++]!;
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new Error('varint too long in a file descriptor');
    }
  };
  while (pos < bytes.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (wire === 0) varint();
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      const length = varint();
      if (pos + length > bytes.length) throw new Error('truncated field in a file descriptor');
      if (field === 1) out.name = decoder.decode(bytes.subarray(pos, pos + length));
      else if (field === 3) out.dependencies.push(decoder.decode(bytes.subarray(pos, pos + length)));
      pos += length;
    } else throw new Error(`unknown wire type ${wire} in a file descriptor`);
  }
  if (pos > bytes.length) throw new Error('truncated field in a file descriptor');
  return out;
}

/** A serialized `google.protobuf.FileDescriptorSet` of the given serialized FileDescriptorProtos (field 1, repeated). */
export function toFileDescriptorSet(files: readonly Uint8Array[]): Uint8Array {
  const parts: number[] = [];
  for (const file of files) {
    parts.push(0x0a);
    let n = file.length;
    while (n >= 0x80) {
      parts.push((n & 0x7f) | 0x80);
      n = Math.floor(n / 128);
    }
    parts.push(n);
    for (const b of file) parts.push(b);
  }
  return Uint8Array.from(parts);
}
