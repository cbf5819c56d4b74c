/// G.711 expansion to linear samples (ITU-T G.711), for reading u-law and a-law sounds in
/// Swift; OpenAL Soft plays both natively, so buffers keep the bytes.
enum G711 {
    /// A u-law byte as a 16-bit linear sample.
    static func muLaw(_ byte: UInt8) -> Int16 {
        let u = ~byte
        let exponent = Int((u >> 4) & 0x07), mantissa = Int(u & 0x0F)
        let magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84
        return Int16(u & 0x80 != 0 ? -magnitude : magnitude)
    }

    /// An a-law byte as a 16-bit linear sample.
    static func aLaw(_ byte: UInt8) -> Int16 {
        let a = byte ^ 0x55
        let exponent = Int((a >> 4) & 0x07), mantissa = Int(a & 0x0F)
        let magnitude = exponent == 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1)
        return Int16(a & 0x80 != 0 ? magnitude : -magnitude)
    }
}
