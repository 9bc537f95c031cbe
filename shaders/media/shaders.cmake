# Participating media (src/media/): the noise tile's bake and the froxel fog's passes.
mote_shader(NAME media/noise_bake SOURCE media/noise_bake.comp)
