// The shared tile of the transpose: TILE x (TILE + TILE_PAD) floats. The
// build chooses the padding; one column of padding is the conflict-free
// default.
#pragma once

#ifndef TILE_PAD
#define TILE_PAD 1
#endif

constexpr int kTile = 32;
constexpr int kTilePitch = kTile + TILE_PAD;
