//! A user's `File` read in the worker with the synchronous `FileReaderSync`, slice by slice, so an
//! upload is never held whole (not in JS, not in wasm) next to the table it becomes.

/// A `File` read in slices with the worker's synchronous reader, so an upload is never held whole
/// (not in JS, not in wasm) next to the table it becomes.
pub(crate) struct BlobReader {
    blob: web_sys::Blob,
    reader: web_sys::FileReaderSync,
    /// Next byte of the blob to fetch, and the slice fetched last with how much of it was used.
    pos: f64,
    chunk: Vec<u8>,
    used: usize,
}

/// Bytes fetched per slice.
const SLICE: f64 = 4.0 * 1024.0 * 1024.0;

impl std::io::Read for BlobReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.used == self.chunk.len() {
            let end = (self.pos + SLICE).min(self.blob.size());
            if self.pos >= end {
                return Ok(0);
            }
            let slice = self
                .blob
                .slice_with_f64_and_f64(self.pos, end)
                .and_then(|b| self.reader.read_as_array_buffer(&b))
                .map_err(|e| std::io::Error::other(format!("{e:?}")))?;
            self.chunk = js_sys::Uint8Array::new(&slice).to_vec();
            self.used = 0;
            self.pos = end;
        }
        let n = buf.len().min(self.chunk.len() - self.used);
        buf[..n].copy_from_slice(&self.chunk[self.used..self.used + n]);
        self.used += n;
        Ok(n)
    }
}

/// What came with a load: bundle bytes, or the user's file to stream.
pub(crate) enum Payload {
    Bytes(Vec<u8>),
    File(web_sys::Blob),
}

/// A `File` streamed from its start.
pub(crate) fn blob_reader(blob: web_sys::Blob) -> Result<BlobReader, String> {
    let reader =
        web_sys::FileReaderSync::new().map_err(|e| format!("cannot read the file: {e:?}"))?;
    Ok(BlobReader {
        blob,
        reader,
        pos: 0.0,
        chunk: Vec::new(),
        used: 0,
    })
}
