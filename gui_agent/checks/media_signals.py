"""Audio and video judged as OSWorld's media metrics judge them: MFCC features compared by
fast DTW (``compare_audios``, librosa and fastdtw there) and perceptual hashes frame by
frame (``compare_videos``, imagehash there).

Written with numpy, PyAV, Pillow and OpenCV, which the project depends on anyway, in place
of librosa, fastdtw, scipy and imagehash (hundreds of megabytes with numba and LLVM); the
tests compare its numbers with those libraries' on the same files.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import av
import cv2
import numpy as np
from PIL import Image

# ---------------------------------------------------------------------- audio

#: librosa's defaults, which OSWorld's compare_audios uses: mono at 22050 Hz, 2048-sample
#: frames every 512 samples, 128 mel bands (Slaney), 20 coefficients, an 80 dB range.
SAMPLE_RATE, N_FFT, HOP, N_MELS, N_MFCC, TOP_DB = 22050, 2048, 512, 128, 20, 80.0


def load_mono(path: Path, rate: int = SAMPLE_RATE) -> np.ndarray:
    """The first audio stream of ``path``, resampled to ``rate`` and averaged to one channel
    (librosa.load's defaults), as float32 samples."""
    chunks: list[np.ndarray] = []
    with av.open(str(path)) as container:
        stream = next((s for s in container.streams if s.type == "audio"), None)
        if stream is None:
            raise ValueError(f"{path.name} has no audio stream")
        resampler = av.AudioResampler(format="fltp", layout=stream.layout.name, rate=rate)
        for frame in container.decode(stream):
            chunks += [out.to_ndarray() for out in resampler.resample(frame)]
        chunks += [out.to_ndarray() for out in resampler.resample(None)]
    if not chunks:
        return np.zeros(0, dtype=np.float32)
    return np.concatenate(chunks, axis=1).mean(axis=0).astype(np.float32)


def _hz_to_mel(hz: np.ndarray) -> np.ndarray:
    """Slaney's mel scale: linear below 1 kHz, logarithmic above (librosa's default)."""
    linear = hz / (200.0 / 3)
    return np.where(hz >= 1000.0, 15.0 + np.log(np.maximum(hz, 1000.0) / 1000.0) / (math.log(6.4) / 27.0), linear)


def _mel_to_hz(mels: np.ndarray) -> np.ndarray:
    return np.where(mels >= 15.0, 1000.0 * np.exp(math.log(6.4) / 27.0 * (mels - 15.0)), mels * (200.0 / 3))


def mel_filters(rate: int = SAMPLE_RATE) -> np.ndarray:
    """Triangular mel filters, area-normalised (librosa.filters.mel with norm='slaney')."""
    fft_freqs = np.linspace(0, rate / 2, 1 + N_FFT // 2)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(np.array(0.0)), _hz_to_mel(np.array(rate / 2)), N_MELS + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - fft_freqs[None, :]
    weights = np.maximum(0, np.minimum(-ramps[:-2] / widths[:-1, None], ramps[2:] / widths[1:, None]))
    return weights * (2.0 / (edges[2:] - edges[:-2]))[:, None]


def _dct_basis(n: int, keep: int) -> np.ndarray:
    """The first ``keep`` rows of the DCT-II matrix of size ``n``, unscaled (scipy's
    ``dct(type=2)`` without ``norm`` is twice this)."""
    return np.cos(np.pi * np.arange(keep)[:, None] * (2 * np.arange(n)[None, :] + 1) / (2 * n))


def _dct_ortho(n: int, keep: int) -> np.ndarray:
    """The first ``keep`` rows of the orthonormal DCT-II matrix of size ``n``."""
    basis = _dct_basis(n, keep) * math.sqrt(2.0 / n)
    basis[0] /= math.sqrt(2.0)
    return basis


def mfcc(samples: np.ndarray, rate: int = SAMPLE_RATE) -> np.ndarray:
    """MFCCs (coefficients x frames) as librosa.feature.mfcc computes them by default:
    centred Hann frames (zero padding), power spectrum, mel filters, dB with an 80 dB floor,
    orthonormal DCT."""
    padded = np.pad(samples.astype(np.float64), N_FFT // 2)
    count = 1 + (len(padded) - N_FFT) // HOP if len(padded) >= N_FFT else 0
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)
    power = np.empty((1 + N_FFT // 2, count))
    for start in range(0, count, 1024):  # in blocks, to bound the memory
        stop = min(count, start + 1024)
        frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[start * HOP:(stop - 1) * HOP + 1:HOP]
        power[:, start:stop] = (np.abs(np.fft.rfft(frames * window, axis=1)) ** 2).T
    decibels = 10.0 * np.log10(np.maximum(1e-10, mel_filters(rate) @ power))
    if decibels.size:
        decibels = np.maximum(decibels, decibels.max() - TOP_DB)
    return _dct_ortho(N_MELS, N_MFCC) @ decibels


def _cosine_distances(vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """1 - cosine similarity of ``vector`` with each row, clipped to [0, 2] against rounding
    as scipy's cosine is (1 where either is all zeros, where scipy's gives NaN)."""
    column = vector[None, :]  # every sum below the same way, so equal vectors give exactly 0, as scipy's do
    products = (rows * column).sum(axis=1)
    norms = np.sqrt((rows * rows).sum(axis=1) * (column * column).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.clip(1.0 - products / norms, 0.0, 2.0)
    return np.where(norms == 0, 1.0, out)


def _dtw(x: np.ndarray, y: np.ndarray, rows: list[tuple[int, int]]) -> tuple[float, list[tuple[int, int]]]:
    """Dynamic time warping of ``x`` against ``y`` inside a window (row i: columns
    ``rows[i]``, a ``[lo, hi)`` range), with fastdtw's step order on ties (up, left, diagonal)."""
    table: dict[tuple[int, int], tuple[float, int, int]] = {(0, 0): (0.0, 0, 0)}
    nothing = (math.inf, 0, 0)
    for i in range(1, len(x) + 1):
        lo, hi = rows[i - 1]
        costs = _cosine_distances(x[i - 1], y[lo:hi])
        for j, cost in zip(range(lo + 1, hi + 1), costs.tolist()):
            best = (table.get((i - 1, j), nothing)[0] + cost, i - 1, j)
            left = table.get((i, j - 1), nothing)[0] + cost
            if left < best[0]:
                best = (left, i, j - 1)
            diagonal = table.get((i - 1, j - 1), nothing)[0] + cost
            if diagonal < best[0]:
                best = (diagonal, i - 1, j - 1)
            table[i, j] = best
    path, (i, j) = [], (len(x), len(y))
    while (i, j) != (0, 0):
        path.append((i - 1, j - 1))
        i, j = table[i, j][1:]
    return table[len(x), len(y)][0], path[::-1]


def _expanded_window(path: list[tuple[int, int]], len_x: int, len_y: int, radius: int) -> list[tuple[int, int]]:
    """fastdtw's window for the next finer level: the coarse path widened by ``radius``,
    each cell split in four, then per row the first run of cells at or after the previous
    row's start."""
    cells = {(i + a, j + b) for i, j in path for a in range(-radius, radius + 1) for b in range(-radius, radius + 1)}
    by_row: dict[int, set[int]] = {}
    for i, j in cells:
        for row in (2 * i, 2 * i + 1):
            by_row.setdefault(row, set()).update((2 * j, 2 * j + 1))
    rows, start = [], 0
    for i in range(len_x):
        present = by_row.get(i, set())
        lo = start
        while lo < len_y and lo not in present:
            lo += 1
        hi = lo
        while hi < len_y and hi in present:
            hi += 1
        rows.append((lo, hi))
        start = lo
    return rows


def fast_dtw(x: np.ndarray, y: np.ndarray, radius: int = 1) -> tuple[float, list[tuple[int, int]]]:
    """FastDTW (Salvador and Chan) with cosine distances, as the fastdtw package computes it:
    halve both series, align those, and refine inside the widened coarse path."""
    if len(x) < radius + 2 or len(y) < radius + 2:
        return _dtw(x, y, [(0, len(y))] * len(x))
    even_x, even_y = len(x) - len(x) % 2, len(y) - len(y) % 2
    _, coarse = fast_dtw((x[0:even_x:2] + x[1:even_x:2]) / 2, (y[0:even_y:2] + y[1:even_y:2]) / 2, radius)
    return _dtw(x, y, _expanded_window(coarse, len(x), len(y), radius))


def _features(path: Path) -> np.ndarray:
    """MFCC frames (frames x coefficients), each coefficient scaled by its largest magnitude."""
    coefficients = mfcc(load_mono(path))
    peaks = np.max(np.abs(coefficients), axis=1, keepdims=True) if coefficients.size else np.ones((N_MFCC, 1))
    peaks[peaks < np.finfo(coefficients.dtype).tiny] = 1.0
    return np.ascontiguousarray((coefficients / peaks).T)


def audio_similarity(first: Path, second: Path) -> float:
    """OSWorld's compare_audios score: ``1 / (1 + d)``, d the fast-DTW distance (sum of cosine
    distances along the alignment) between the two recordings' normalised MFCC frames.

    1 for the same samples; the same recording re-encoded as MP3 scores about 0.97-0.999;
    the same music cut 5 s later, under 0.01. The distance is a sum over frames, so longer
    recordings score lower for the same per-frame difference.
    """
    a, b = _features(first), _features(second)
    if not len(a) or not len(b):
        return 1.0 if len(a) == len(b) else 0.0
    distance, _ = fast_dtw(a, b)
    return 1.0 / (1.0 + distance)


# ---------------------------------------------------------------------- video


def perceptual_hash(rgb: np.ndarray) -> np.ndarray:
    """imagehash.phash of an RGB frame: grey, 32x32 Lanczos, 2-D DCT, the top-left 8x8
    coefficients above their median (64 bits)."""
    grey = np.asarray(Image.fromarray(rgb).convert("L").resize((32, 32), Image.Resampling.LANCZOS), dtype=np.float64)
    basis = _dct_basis(32, 8)  # imagehash's scipy DCT scales every coefficient by 4 more: same bits
    low = basis @ grey @ basis.T
    return (low > np.median(low)).flatten()


def videos_match(first: Path, second: Path, *, max_frames: int = 100, threshold: int = 5) -> tuple[bool, dict[str, Any]]:
    """OSWorld's compare_videos: frame by frame over the first ``max_frames``, count frames whose
    perceptual hashes differ in more than ``threshold`` bits; more than ``threshold`` such
    frames fail; a video ending first passes only if the other ends at the same frame."""
    captures = [cv2.VideoCapture(str(first)), cv2.VideoCapture(str(second))]
    checked = mismatched = 0
    try:
        while checked < max_frames:
            (ok1, frame1), (ok2, frame2) = captures[0].read(), captures[1].read()
            if not ok1 or not ok2:
                return ok1 == ok2, {"frames": checked, "mismatched": mismatched, "ended": [not ok1, not ok2]}
            hashes = [perceptual_hash(cv2.cvtColor(f, cv2.COLOR_BGR2RGB)) for f in (frame1, frame2)]
            checked += 1
            if int(np.count_nonzero(hashes[0] != hashes[1])) > threshold:
                mismatched += 1
                if mismatched > threshold:
                    return False, {"frames": checked, "mismatched": mismatched}
        return True, {"frames": checked, "mismatched": mismatched}
    finally:
        for capture in captures:
            capture.release()


__all__ = ["audio_similarity", "fast_dtw", "load_mono", "mfcc", "perceptual_hash", "videos_match"]
