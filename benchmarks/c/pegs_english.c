/* Baseline for benchmarks/bench_pegs_english.py: a straightforward single-threaded C
 * program doing the level-by-level analysis of the English central game.
 * Forward: level k-1 from level k, each child reduced to its canonical form (smallest
 * image under the 8 symmetries, through byte tables), deduplicated in an open-addressing
 * hash table, then sorted. Games: the lines of play from the start into every class
 * (unsigned __int128; T(child) += T(parent) over every jump of every position, the child
 * found by binary search in the sorted level below), summed over the positions with no
 * jump left; the first level holding one gives the shortest game. Backward: paths to
 * the centre per position (unsigned __int128), by binary search in the sorted level below.
 * Minimum moves (a move: one peg's chain of jumps): the fewest moves from every winning
 * class to the centre, level by level up from the goal, each move's end looked up by
 * binary search among the winning classes of its level.
 * Prints: the time of each pass, the classes, the games, the shortest game, the winning
 * classes, the solution count and the fewest moves of a solution.
 * Usage: pegs_english [forward|nogames]   (forward = stop after the enumeration;
 * nogames = skip the games pass). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef unsigned __int128 u128;

static int ncells, njumps;
static int cr[64], cc[64], idx[7][7];
static u64 jf[128], jo[128], jt[128];
static u64 table[8][5][256];

static int on_board(int r, int c) {
    return r >= 0 && r < 7 && c >= 0 && c < 7 && ((r >= 2 && r <= 4) || (c >= 2 && c <= 4));
}

static u64 canon(u64 x) {
    u64 best = ~(u64)0;
    for (int s = 0; s < 8; s++) {
        u64 y = 0;
        for (int b = 0; b < 5; b++) y |= table[s][b][(x >> (8 * b)) & 255];
        if (y < best) best = y;
    }
    return best;
}

static int cmp(const void *a, const void *b) {
    u64 x = *(const u64 *)a, y = *(const u64 *)b;
    return x < y ? -1 : x > y;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The distinct canonical children of a level, sorted; *count gets their number. */
static u64 *expand(const u64 *level, size_t n, size_t *count) {
    size_t cap = 1024;
    while (cap < 4 * n) cap <<= 1;
    u64 *hash = calloc(cap, sizeof(u64));
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        u64 p = level[i];
        for (int j = 0; j < njumps; j++) {
            if ((p & jf[j]) && (p & jo[j]) && !(p & jt[j])) {
                u64 c = canon(p ^ jf[j] ^ jo[j] ^ jt[j]);
                if (2 * (used + 1) > cap) { /* grow */
                    size_t ncap = cap * 2;
                    u64 *nh = calloc(ncap, sizeof(u64));
                    for (size_t k = 0; k < cap; k++) {
                        if (hash[k]) {
                            size_t h = (hash[k] * 0x9E3779B97F4A7C15ULL) >> 20 & (ncap - 1);
                            while (nh[h]) h = (h + 1) & (ncap - 1);
                            nh[h] = hash[k];
                        }
                    }
                    free(hash);
                    hash = nh;
                    cap = ncap;
                }
                size_t h = (c * 0x9E3779B97F4A7C15ULL) >> 20 & (cap - 1);
                while (hash[h] && hash[h] != c) h = (h + 1) & (cap - 1);
                if (!hash[h]) { hash[h] = c; used++; }
            }
        }
    }
    u64 *out = malloc((used + 1) * sizeof(u64));
    size_t w = 0;
    for (size_t k = 0; k < cap; k++) if (hash[k]) out[w++] = hash[k];
    free(hash);
    qsort(out, w, sizeof(u64), cmp);
    *count = w;
    return out;
}

static void print_u128(u128 x) {
    char digits[64];
    int nd = 0;
    do { digits[nd++] = '0' + (int)(x % 10); x /= 10; } while (x);
    while (nd) putchar(digits[--nd]);
}

static u64 *wins[33];
static size_t nwins[33];
static int *dist[33];

static long find(const u64 *a, size_t n, u64 x);

/* The fewest moves to the goal after the move that has taken peg ``at`` (a cell) of
 * ``pos`` (``pegs`` pegs) this far, over every continuation of the chain; 1 << 30: none. */
static int chain_best(u64 pos, int pegs, int at) {
    int best = 1 << 30;
    for (int j = 0; j < njumps; j++) {
        if (jf[j] != 1ULL << at || !(pos & jo[j]) || (pos & jt[j])) continue;
        u64 next = pos ^ jf[j] ^ jo[j] ^ jt[j];
        long w = find(wins[pegs - 1], nwins[pegs - 1], canon(next));
        if (w >= 0 && dist[pegs - 1][w] + 1 < best) best = dist[pegs - 1][w] + 1;
        int to = __builtin_ctzll(jt[j]);
        int deeper = chain_best(next, pegs - 1, to);
        if (deeper < best) best = deeper;
    }
    return best;
}

static long find(const u64 *a, size_t n, u64 x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return (lo < n && a[lo] == x) ? (long)lo : -1;
}

int main(int argc, char **argv) {
    int forward_only = argc > 1 && strcmp(argv[1], "forward") == 0;
    int games_pass = !(argc > 1 && strcmp(argv[1], "nogames") == 0);
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++)
            if (on_board(r, c)) { cr[ncells] = r; cc[ncells] = c; idx[r][c] = ncells++; }
    int dr[4] = {-1, 0, 1, 0}, dc[4] = {0, 1, 0, -1};
    for (int i = 0; i < ncells; i++)
        for (int d = 0; d < 4; d++) {
            int r1 = cr[i] + dr[d], c1 = cc[i] + dc[d], r2 = cr[i] + 2 * dr[d], c2 = cc[i] + 2 * dc[d];
            if (on_board(r1, c1) && on_board(r2, c2)) {
                jf[njumps] = 1ULL << i; jo[njumps] = 1ULL << idx[r1][c1]; jt[njumps] = 1ULL << idx[r2][c2];
                njumps++;
            }
        }
    for (int s = 0; s < 8; s++)
        for (int b = 0; b < 5; b++)
            for (int v = 0; v < 256; v++) {
                u64 y = 0;
                for (int k = 0; k < 8; k++) {
                    int i = 8 * b + k;
                    if (i >= ncells || !(v >> k & 1)) continue;
                    int r = cr[i] - 3, c = cc[i] - 3, t;
                    for (int q = 0; q < (s & 3); q++) { t = r; r = c; c = -t; }
                    if (s & 4) c = -c;
                    y |= 1ULL << idx[r + 3][c + 3];
                }
                table[s][b][v] = y;
            }
    double t0 = now();
    u64 *levels[33];
    size_t sizes[33];
    u64 full = (ncells == 64) ? ~0ULL : ((1ULL << ncells) - 1);
    u64 start = full & ~(1ULL << idx[3][3]);
    levels[32] = malloc(sizeof(u64));
    levels[32][0] = canon(start);
    sizes[32] = 1;
    size_t total = 1;
    for (int k = 31; k >= 1; k--) {
        levels[k] = expand(levels[k + 1], sizes[k + 1], &sizes[k]);
        total += sizes[k];
    }
    double t1 = now();
    printf("forward %.3f s, %zu classes\n", t1 - t0, total);
    if (forward_only) return 0;
    if (games_pass) {
        double g0 = now();
        u128 *weights = calloc(1, sizeof(u128));
        weights[0] = 1;
        u128 games = 0;
        int shortest = -1;
        for (int k = 32; k >= 1; k--) {
            u128 *next = k > 1 ? calloc(sizes[k - 1], sizeof(u128)) : NULL;
            for (size_t i = 0; i < sizes[k]; i++) {
                u64 p = levels[k][i];
                int moves = 0;
                for (int j = 0; j < njumps; j++)
                    if ((p & jf[j]) && (p & jo[j]) && !(p & jt[j])) {
                        moves++;
                        long w = find(levels[k - 1], sizes[k - 1], canon(p ^ jf[j] ^ jo[j] ^ jt[j]));
                        next[w] += weights[i];
                    }
                if (moves == 0) {
                    games += weights[i];
                    if (shortest < 0) shortest = 32 - k;
                }
            }
            free(weights);
            weights = next;
        }
        printf("games %.3f s, games ", now() - g0);
        print_u128(games);
        printf(", shortest game %d jumps\n", shortest);
    }
    double b0 = now();
    u128 *below = calloc(sizes[1], sizeof(u128));
    long at = find(levels[1], sizes[1], canon(1ULL << idx[3][3]));
    if (at >= 0) below[at] = 1;
    size_t winning = at >= 0;
    wins[1] = malloc(sizeof(u64));
    nwins[1] = 0;
    if (at >= 0) wins[1][nwins[1]++] = levels[1][at];
    for (int k = 2; k <= 32; k++) {
        u128 *cur = calloc(sizes[k], sizeof(u128));
        wins[k] = malloc(sizes[k] * sizeof(u64));
        nwins[k] = 0;
        for (size_t i = 0; i < sizes[k]; i++) {
            u64 p = levels[k][i];
            u128 sum = 0;
            for (int j = 0; j < njumps; j++)
                if ((p & jf[j]) && (p & jo[j]) && !(p & jt[j])) {
                    long w = find(levels[k - 1], sizes[k - 1], canon(p ^ jf[j] ^ jo[j] ^ jt[j]));
                    if (w >= 0) sum += below[w];
                }
            cur[i] = sum;
            if (sum) { winning++; wins[k][nwins[k]++] = p; }
        }
        free(below);
        free(levels[k - 1]);
        below = cur;
    }
    printf("backward %.3f s, %zu winning classes, solutions ", now() - b0, winning);
    print_u128(below[0]);
    printf("\n");
    double m0 = now();
    dist[1] = calloc(1, sizeof(int));
    for (int k = 2; k <= 32; k++) {
        dist[k] = malloc((nwins[k] + 1) * sizeof(int));
        for (size_t i = 0; i < nwins[k]; i++) {
            u64 p = wins[k][i];
            int best = 1 << 30;
            for (int c = 0; c < ncells; c++)
                if (p >> c & 1) {
                    int b = chain_best(p, k, c);
                    if (b < best) best = b;
                }
            dist[k][i] = best;
        }
    }
    printf("minmoves %.3f s, min moves %d\n", now() - m0, nwins[32] ? dist[32][0] : -1);
    printf("total %.3f s\n", now() - t0);
    return 0;
}
