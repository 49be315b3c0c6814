/* A test-only stand-in for Windows' bcryptprimitives.dll, which Debian's wine 8 lacks.
 *
 * Rust's standard library (1.78 and later) imports ProcessPrng from bcryptprimitives.dll, which
 * Windows 10 and later ship; wine 8 does not, so ferrum.exe cannot start under it. This DLL gives
 * ProcessPrng from RtlGenRandom (advapi32's SystemFunction036), which wine has. It is built with
 * the same mingw-w64 as ferrum.exe and placed beside the exe for the wine tests only; it is never
 * shipped (Windows has the real one). */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a 32-bit length: fill a larger buffer in pieces. */
    while (length > 0) {
        ULONG piece = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
