// The zip format's magic numbers, named once (PKWARE APPNOTE 6.3.10). Parsing lives elsewhere; this
// file only says what the numbers mean.
export const LOCAL_HEADER_SIGNATURE = 0x04034b50;
export const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
export const END_RECORD_SIGNATURE = 0x06054b50;
export const ZIP64_END_RECORD_SIGNATURE = 0x06064b50;
export const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
export const DATA_DESCRIPTOR_SIGNATURE = 0x08074b50;

export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const END_RECORD_SIZE = 22;
export const ZIP64_LOCATOR_SIZE = 20;
export const ZIP64_END_RECORD_SIZE = 56;
export const MAX_COMMENT_LENGTH = 0xffff;

/** General-purpose flag bits. */
export const FLAG_ENCRYPTED = 0x0001;
export const FLAG_DATA_DESCRIPTOR = 0x0008;
export const FLAG_PATCHED_DATA = 0x0020;
export const FLAG_STRONG_ENCRYPTION = 0x0040;
export const FLAG_UTF8 = 0x0800;
export const FLAG_MASKED_HEADERS = 0x2000;

export const METHOD_STORED = 0;
export const METHOD_DEFLATED = 8;

export const EXTRA_ZIP64 = 0x0001;
export const EXTRA_UNICODE_PATH = 0x7075;

/** A 32-bit size or offset of 0xFFFFFFFF means "look in the zip64 extra field". */
export const ZIP64_SENTINEL_32 = 0xffffffff;
export const ZIP64_SENTINEL_16 = 0xffff;
